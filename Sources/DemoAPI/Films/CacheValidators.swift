#if DemoAPI
import Foundation
import Hummingbird
import NIOCore

/// The caching headers of a films response and the conditional-request check against them.
///
/// The ETag is a strong validator derived from the body bytes, so it changes exactly when the JSON
/// does; `Last-Modified` is fixed per film so `If-Modified-Since` tests are deterministic.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheValidators {
    var etag: String
    var lastModified: Int
    var maxAge: Int

    init(body: ByteBuffer, lastModified: Int, maxAge: Int) {
        var hash = FNV1a64()
        hash.update(body.readableBytesView)
        self.etag = "\"\(hash.hexDigest)\""
        self.lastModified = lastModified
        self.maxAge = maxAge
    }

    /// `Cache-Control`, `ETag`, `Last-Modified` and `Date`, sent on both 200 and 304.
    var headers: HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "max-age=\(maxAge)"
        headers[.eTag] = etag
        headers[.lastModified] = HTTPDate.format(lastModified)
        headers[.date] = HTTPDate.format(Int(Date().timeIntervalSince1970))
        return headers
    }

    /// Whether `request` already holds this representation (RFC 9110 §13.1.2 and §13.1.3).
    ///
    /// `If-None-Match` wins when present (weak comparison, `*` matches anything);
    /// `If-Modified-Since` is only consulted without it, and an unparsable date is ignored.
    func isNotModified(_ request: Request) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty {
            let ours = Self.opaqueTag(etag)
            return
                ifNoneMatch
                .flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .contains { $0 == "*" || Self.opaqueTag($0) == ours }
        }
        if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse) {
            return lastModified <= since
        }
        return false
    }

    /// The tag without its weakness marker, which is what weak comparison compares.
    private static func opaqueTag(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }
}
#endif
