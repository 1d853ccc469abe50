import Foundation
import HTTPTypes

/// What of a request's URL cookies look at: the host, whether the scheme is a secure one, and the
/// path without its query.
struct CookieTarget: Equatable {
    let host: String
    let isSecure: Bool
    let path: String

    init(host: String, isSecure: Bool, path: String) {
        self.host = CookieMatching.canonicalHost(host)
        self.isSecure = isSecure
        self.path = path.isEmpty ? "/" : path
    }

    /// `url`'s, or `nil` for a URL without a host or with a scheme other than http and https.
    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
            !host.isEmpty
        else { return nil }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        self.init(host: host, isSecure: scheme == "https", path: components?.percentEncodedPath ?? url.path)
    }

    /// `request`'s, read from its scheme, authority and path without making a URL.
    init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let authority = request.authority
        else { return nil }
        let host = Self.host(ofAuthority: authority)
        guard !host.isEmpty else { return nil }
        let target = request.path ?? "/"
        let path = target.firstIndex(where: { $0 == "?" || $0 == "#" }).map { String(target[..<$0]) } ?? target
        self.init(host: host, isSecure: scheme == "https", path: path)
    }

    /// `authority` without its user information and port: `[::1]:8080` gives `[::1]`.
    private static func host(ofAuthority authority: String) -> String {
        var rest = Substring(authority)
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[...close]) }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return String(rest)
    }
}
