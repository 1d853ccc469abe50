/// The matching rules of RFC 6265 §5.1.3 and §5.1.4: which hosts a cookie's domain covers, which
/// paths its path covers, and the path a cookie gets when its `Set-Cookie` names none.
enum CookieMatching {
    /// Whether `host` domain-matches `domain` (both lowercased): the same string, or a host name
    /// (never an IP address) that ends in `.` followed by `domain`.
    static func host(_ host: String, matchesDomain domain: String) -> Bool {
        if host == domain { return true }
        guard host.utf8.count > domain.utf8.count, host.hasSuffix(domain), !isIPAddress(host) else { return false }
        let dot = host.utf8.index(host.utf8.endIndex, offsetBy: -domain.utf8.count - 1)
        return host.utf8[dot] == UInt8(ascii: ".")
    }

    /// Whether `requestPath` path-matches `cookiePath`: the same, or below it (`/a` covers `/a/b`,
    /// not `/ab`).
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if cookiePath.hasSuffix("/") { return true }
        let next = requestPath.utf8.index(requestPath.utf8.startIndex, offsetBy: cookiePath.utf8.count)
        return requestPath.utf8[next] == UInt8(ascii: "/")
    }

    /// The default path for a cookie set by a request to `path` (its query already removed):
    /// the path up to, not including, its last `/`, or `/` (§5.1.4).
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let lastSlash = path.lastIndex(of: "/"), lastSlash != path.startIndex else { return "/" }
        return String(path[..<lastSlash])
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
