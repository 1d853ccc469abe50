import Foundation
import HTTPTypes

/// How requests map to ``CacheKey``s: the URL a response is stored under, and the credential
/// partition that keeps one user's answers from another.
///
/// ## Which credentials partition
///
/// `Authorization` and `Cookie` both do: an API that authenticates with a session cookie answers
/// per user exactly as one that takes a bearer token. So do the other credential headers: those of
/// ``RedirectPolicy/alwaysSensitiveHeaders`` (`Proxy-Authorization`, `X-API-Key` and the other
/// API-key names) and the ones the client declares in its ``RedirectPolicy/sensitiveHeaders``: an
/// API that tells users apart by an API key answers per key. A request with none lands in the
/// shared partition (`""`). The partition is the SHA-256 digest of the credentials, in hex, never the
/// credentials themselves, because keys are written to disk. A response marked `public` is
/// stored in the shared partition, where any request may use it.
enum CachePartition {
    /// The credential fields of a request, as sent.
    struct Credentials: Equatable, Sendable {
        let authorization: [String]
        let cookie: [String]
        /// The other credential fields, in order.
        let others: [HTTPField]

        /// - Parameters:
        ///   - request: The request.
        ///   - declared: The headers the client declares as credentials, besides
        ///     ``RedirectPolicy/alwaysSensitiveHeaders``.
        init(_ request: HTTPRequest, declared: Set<HTTPField.Name>) {
            // One pass, names compared as the short strings they are: hashing each name for a
            // set lookup cost more than the rest of a cache hit's partition.
            var authorization: [String] = []
            var cookie: [String] = []
            var others: [HTTPField] = []
            for field in request.headerFields {
                let name = field.name.canonicalName
                if name == "authorization" {
                    authorization.append(field.value)
                } else if name == "cookie" {
                    cookie.append(field.value)
                } else if Self.otherCredentialNames.contains(name) || (!declared.isEmpty && declared.contains(field.name)) {
                    others.append(field)
                }
            }
            self.authorization = authorization
            self.cookie = cookie
            self.others = others
        }

        /// ``RedirectPolicy/alwaysSensitiveHeaders`` but `Authorization` and `Cookie`, by canonical name.
        private static let otherCredentialNames: [String] = RedirectPolicy.alwaysSensitiveHeaders
            .map(\.canonicalName).filter { $0 != "authorization" && $0 != "cookie" }.sorted()

        var isEmpty: Bool { authorization.isEmpty && cookie.isEmpty && others.isEmpty }
    }

    /// The partitions of one cache's calls: the digest of the credentials last seen, kept so
    /// that the calls of one user (the usual case: one token for many calls) hash them once
    /// rather than once per call (SHA-256 was a tenth of a call through the whole stack).
    struct Digests: Sendable {
        private let last = LastResult<Credentials, String>()

        /// The partition of `request`: empty without credentials, a digest of them otherwise.
        /// - Parameter declared: The credential headers the client declares (its redirect
        ///   policy's ``RedirectPolicy/sensitiveHeaders``).
        func partition(for request: HTTPRequest, declared: Set<HTTPField.Name>) -> String {
            let credentials = Credentials(request, declared: declared)
            guard !credentials.isEmpty else { return "" }
            return last.value(for: credentials, compute: CachePartition.digest(of:))
        }
    }

    private static func digest(of credentials: Credentials) -> String {
        let (authorization, cookie) = (credentials.authorization, credentials.cookie)
        // Field names and a separator that cannot occur in a field value keep
        // ("a", "b") and ("ab", "") apart.
        var material = "authorization\n"
        material += authorization.joined(separator: "\n")
        material += "\ncookie\n"
        material += cookie.joined(separator: "\n")
        // Only when there are any, so that a partition of Authorization and Cookie alone is the
        // one it always was (and a disk cache's entries stay found).
        for field in credentials.others {
            material += "\n\(field.name.canonicalName)\n\(field.value)"
        }
        return LowercaseHex.sha256(of: material)
    }

    /// The URL a response to `request` is stored under, or `nil` when the request has no absolute
    /// URL (no scheme or authority).
    static func url(for request: HTTPRequest) -> String? {
        guard let scheme = request.scheme, let authority = request.authority else { return nil }
        return normalized(scheme: scheme, authority: authority, pathAndQuery: request.path ?? "/")
    }

    /// The key string of `url`: scheme and authority lowercased, no fragment.
    static func url(for url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme, let host = components.percentEncodedHost
        else { return nil }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var pathAndQuery = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { pathAndQuery += "?" + query }
        return normalized(scheme: scheme, authority: authority, pathAndQuery: pathAndQuery)
    }

    private static func normalized(scheme: String, authority: String, pathAndQuery: String) -> String {
        // Scheme and host compare without case; the fragment is not sent, so it is no part of the key.
        var scheme = scheme.lowercasedIfNeeded
        var authority = authority.lowercasedIfNeeded
        var path = pathAndQuery
        return path.withUTF8 { path in
            let sent = UnsafeBufferPointer(rebasing: path[..<(path.firstIndex(of: UInt8(ascii: "#")) ?? path.endIndex)])
            return scheme.withUTF8 { scheme in
                authority.withUTF8 { authority in key(scheme: scheme, authority: authority, path: sent) }
            }
        }
    }

    /// `scheme://authority` followed by `path` (`/` when empty), copied into one new string: a
    /// string grown by `+=` checks its capacity and its encoding at every step, which cost more
    /// than the rest of the key.
    private static func key(
        scheme: UnsafeBufferPointer<UInt8>, authority: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>
    ) -> String {
        String(unsafeUninitializedCapacity: scheme.count + 3 + authority.count + max(path.count, 1)) { buffer in
            var written = 0
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                (buffer.baseAddress! + written).initialize(from: base, count: bytes.count)
                written += bytes.count
            }
            append(scheme)
            ("://" as StaticString).withUTF8Buffer(append)
            append(authority)
            if path.isEmpty { ("/" as StaticString).withUTF8Buffer(append) } else { append(path) }
            return written
        }
    }
}
