/// The matching rules of RFC 6265 §5.1.3 and §5.1.4: which hosts a cookie's domain covers, which
/// paths its path covers, and the path a cookie gets when its `Set-Cookie` names none.
enum CookieMatching {
    /// Whether `host` domain-matches `domain` (both lowercased): the same string, or a host name
    /// (never an IP address) that ends in `.` followed by `domain`.
    static func host(_ host: String, matchesDomain domain: String) -> Bool {
        // Bytes, not Characters: Unicode equivalence (a Kelvin sign is a `K`) must not make two
        // different strings match, nor put an index past the end of the shorter one.
        let (hostBytes, domainBytes) = (host.utf8, domain.utf8)
        if hostBytes.elementsEqual(domainBytes) { return true }
        guard hostBytes.count > domainBytes.count, hostBytes.reversed().starts(with: domainBytes.reversed()), !isIPAddress(host)
        else { return false }
        let dot = hostBytes.index(hostBytes.endIndex, offsetBy: -domainBytes.count - 1)
        return hostBytes[dot] == UInt8(ascii: ".")
    }

    /// Whether `requestPath` path-matches `cookiePath`: the same, or below it (`/a` covers `/a/b`,
    /// not `/ab`). Compared byte by byte, as ``host(_:matchesDomain:)``.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        let (request, cookie) = (requestPath.utf8, cookiePath.utf8)
        guard request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request[request.index(request.startIndex, offsetBy: cookie.count)] == UInt8(ascii: "/")
    }

    /// The default path for a cookie set by a request to `path` (its query already removed):
    /// the path up to, not including, its last `/`, or `/` (§5.1.4).
    static func defaultPath(_ path: String) -> String {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")),
            lastSlash != bytes.startIndex
        else { return "/" }
        return String(decoding: bytes[..<lastSlash], as: UTF8.self)
    }

    /// A host as cookies compare it: lowercased, brackets of an IPv6 literal removed, and a
    /// trailing dot removed (`example.com.` is the same host).
    static func canonicalHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.utf8.count > 1 { host.removeLast() }
        return host
    }

    /// Whether `host` is an IPv4 address in dotted decimal or an IPv6 address (brackets removed).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.utf8.count <= 3 && part.utf8.allSatisfy { (0x30...0x39).contains($0) }
                    && Int(part).map { $0 <= 255 } == true
            }
    }
}
