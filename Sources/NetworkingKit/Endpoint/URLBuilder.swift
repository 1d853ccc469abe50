import Foundation
import HTTPTypes

/// Joins a base URL, a path and query items into one URL, correctly on the edge cases: base URLs
/// with or without a trailing path or slash, paths with or without a leading slash, characters
/// that must be escaped in a path or a query, repeated query names.
enum URLBuilder {
    /// Builds the URL of a request.
    /// - Parameters:
    ///   - clientBase: The client's base URL, used when `endpointBase` is relative.
    ///   - endpointBase: The endpoint's base URL: absolute, or a relative path prefix.
    ///   - path: The path; an absolute `http(s)://` URL stands alone.
    ///   - queryItems: Query parameters, appended after any the base URL has.
    /// - Throws: ``NetworkError/invalidURL(_:reason:)``.
    static func url(
        clientBase: URL?,
        endpointBase: URL,
        path: String,
        queryItems: [URLQueryItem]?
    ) throws -> URL {
        try checkPath(path)
        var base: URL
        // The texts whose `/`-separated segments follow the base's path, in order.
        var segmentSources: (String?, String?) = (nil, nil)
        if isAbsolute(path) {
            guard let absolute = URL(string: path) else {
                throw NetworkError.invalidURL(path, reason: "the absolute URL cannot be parsed")
            }
            base = absolute
        } else {
            if endpointBase.scheme != nil {
                base = endpointBase
            } else if let clientBase {
                base = clientBase
                segmentSources.0 = endpointBase.relativeString
            } else {
                throw NetworkError.invalidURL(
                    path, reason: "no base URL: set the client's baseURL or the endpoint's absolute baseURL")
            }
            segmentSources.1 = path
        }
        try validate(base)

        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
            throw NetworkError.invalidURL(base.absoluteString, reason: "the URL cannot be parsed")
        }
        components.fragment = nil
        let target = requestTarget(
            basePath: components.percentEncodedPath, baseQuery: components.percentEncodedQuery,
            segmentsOf: segmentSources, trailingSlash: path.hasSuffix("/"), queryItems: queryItems)
        components.percentEncodedPath = target.path
        components.percentEncodedQuery = target.query
        guard let url = components.url else {
            throw NetworkError.invalidURL(base.absoluteString + path, reason: "the URL cannot be assembled")
        }
        return url
    }

    /// The request for a path relative to the client's base URL, already taken apart: the same
    /// request as `HTTPRequest(method:url:)` on ``url(clientBase:endpointBase:path:queryItems:)``,
    /// joined from strings. `nil` when the path or the endpoint's base is absolute.
    static func request(
        method: HTTPRequest.Method,
        base: ParsedBaseURL,
        endpointBase: URL,
        path: String,
        queryItems: [URLQueryItem]?,
        headerFields: HTTPFields
    ) -> HTTPRequest? {
        guard !isAbsolute(path), endpointBase.scheme == nil else { return nil }
        let target = requestTarget(
            basePath: base.path, baseQuery: base.query, segmentsOf: (endpointBase.relativeString, path),
            trailingSlash: path.hasSuffix("/"), queryItems: queryItems)
        return HTTPRequest(
            method: method, scheme: base.scheme, authority: base.authority,
            path: target.query.map { "\(target.path)?\($0)" } ?? target.path, headerFields: headerFields)
    }

    /// The percent-encoded path and query of a request: the segments escaped and joined onto the
    /// base's path, the query items appended to the base's query.
    private static func requestTarget(
        basePath: String, baseQuery: String?, segmentsOf sources: (String?, String?), trailingSlash: Bool,
        queryItems: [URLQueryItem]?
    ) -> (path: String, query: String?) {
        var path = basePath
        func hasSegment(_ source: String?) -> Bool {
            source?.utf8.contains { $0 != UInt8(ascii: "/") } ?? false
        }
        // Written into one string, segment by segment, without a list of them; a segment that
        // needs no escape is copied as it is. Read as bytes: `/` is ASCII, so every segment
        // starts and ends on a character.
        func appendSegments(of source: String?) {
            guard let source else { return }
            let bytes = source.utf8
            var start = bytes.startIndex
            while start < bytes.endIndex {
                guard bytes[start] != UInt8(ascii: "/") else {
                    start = bytes.index(after: start)
                    continue
                }
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
                path += "/"
                path += PercentEncoding.encodeSegment(String(Substring(bytes[start..<end])), keepingEscapes: true)
                start = end
            }
        }
        if hasSegment(sources.0) || hasSegment(sources.1) {
            while path.hasSuffix("/") { path.removeLast() }
            path.reserveCapacity(path.utf8.count + (sources.0?.utf8.count ?? 0) + (sources.1?.utf8.count ?? 0) + 2)
            appendSegments(of: sources.0)
            appendSegments(of: sources.1)
            if trailingSlash { path += "/" }
        } else if path.isEmpty {
            path = "/"
        }
        var query = baseQuery
        if let queryItems, !queryItems.isEmpty {
            let encoded = queryItems.map(encodeQueryItem).joined(separator: "&")
            let existing = baseQuery.flatMap { $0.isEmpty ? nil : $0 }
            query = existing.map { "\($0)&\(encoded)" } ?? encoded
        }
        return (path, query)
    }

    /// A query item as `name=value`, with everything but RFC 3986 unreserved characters escaped:
    /// servers differ on `+` and `;`, so the only safe choice is to escape them.
    static func encodeQueryItem(_ item: URLQueryItem) -> String {
        let name = PercentEncoding.encode(item.name, allowing: PercentEncoding.isUnreserved, keepingEscapes: false)
        guard let value = item.value else { return name }
        return name + "=" + PercentEncoding.encode(value, allowing: PercentEncoding.isUnreserved, keepingEscapes: false)
    }

    private static func isAbsolute(_ path: String) -> Bool {
        hasPrefixIgnoringCase(path, "http://") || hasPrefixIgnoringCase(path, "https://")
    }

    /// Whether `text` starts with `prefix` (lowercase ASCII), whatever the case of its letters.
    private static func hasPrefixIgnoringCase(_ text: String, _ prefix: String) -> Bool {
        var letters = text.utf8.makeIterator()
        return prefix.utf8.allSatisfy { expected in
            guard let byte = letters.next() else { return false }
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            return lowered == expected
        }
    }

    /// Throws unless `path` can be sent as written: no control character (CR, LF, NUL and the
    /// others, which signal an injection; a query item or ``PathSegment/escape(_:)`` encodes them
    /// on purpose), and, in a path relative to a base URL, no `?` or `#`: `"/search?q=toy"` would
    /// otherwise be sent as `/search%3Fq=toy` and answered 404, where the caller meant a query.
    static func checkPath(_ path: String) throws {
        if let byte = ControlCharacters.first(in: path) {
            throw NetworkError.invalidURL(
                ControlCharacters.printable(path), reason: "it contains \(ControlCharacters.name(of: byte))")
        }
        if path.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }), !isAbsolute(path) {
            throw NetworkError.invalidURL(
                path,
                reason: "the path holds '?' or '#': give the query as query items (Request's query, APIEndpoint's "
                    + "queryItems), or escape a value that holds one with PathSegment.escape(_:)")
        }
    }

    /// Throws unless `base` is an http or https URL with a host and port that can be connected to.
    static func validate(_ base: URL) throws {
        guard let scheme = base.scheme?.lowercased() else {
            throw NetworkError.invalidURL(base.absoluteString, reason: "the URL has no scheme (expected http or https)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw NetworkError.invalidURL(base.absoluteString, reason: "the scheme '\(scheme)' is not http or https")
        }
        guard let host = base.host, !host.isEmpty else {
            throw NetworkError.invalidURL(base.absoluteString, reason: "the URL has no host")
        }
        if let problem = URLAuthority.problem(in: base) {
            throw NetworkError.invalidURL(base.absoluteString, reason: problem)
        }
    }
}
