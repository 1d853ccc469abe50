import Foundation
import HTTPTypes

/// A URL's origin (RFC 6454): scheme, host and port, the default port filled in. What decides
/// whether credentials may follow a redirect or a page link, and which `Location` an unsafe
/// request may invalidate in the cache.
struct Origin: Hashable {
    let scheme: String
    let host: String
    let port: Int?
    /// The scheme and authority exactly as the client writes them on the requests it builds for
    /// this origin, when it is the client's: compared first, as whole strings, which settles
    /// nearly every call without reading the authority.
    /// How the client's requests spell this origin, when known: compared first, as written.
    var spelling: (scheme: String, authority: String)?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? Self.defaultPort(scheme: scheme)
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    static func == (lhs: Origin, rhs: Origin) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
    }

    /// An origin no request has: credentials given for it go nowhere.
    static let nowhere = Origin(scheme: "", host: "", port: nil)

    /// The port a scheme implies when a URL names none: 443 for `https`, 80 for `http`.
    static func defaultPort(scheme: String?) -> Int? {
        scheme.flatMap { defaultPort(lowercasedScheme: $0.lowercased()) }
    }

    /// ``defaultPort(scheme:)`` for a scheme in lowercase already: no copy to make.
    private static func defaultPort(lowercasedScheme scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }

    /// Whether `request` goes to this origin, read from its scheme and authority without making
    /// a URL or a string (it runs on every authenticated call).
    func contains(_ request: HTTPRequest) -> Bool {
        guard let requestScheme = request.scheme, let authority = request.authority, !host.isEmpty else { return false }
        if let spelling, spelling.authority == authority, spelling.scheme == requestScheme { return true }
        guard Self.equalIgnoringASCIICase(requestScheme[...], scheme) else { return false }
        let (requestHost, portText) = URLAuthority.split(authority[...])
        guard Self.equalIgnoringASCIICase(requestHost, host) else { return false }
        if let portText, !portText.isEmpty { return URLAuthority.portNumber(portText) == port }
        return port == Self.defaultPort(lowercasedScheme: scheme)
    }

    /// Whether `text` is `lowercase` (lowercase ASCII already) but for the case of its letters.
    private static func equalIgnoringASCIICase(_ text: Substring, _ lowercase: String) -> Bool {
        text.utf8.elementsEqual(lowercase.utf8) { byte, expected in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == expected
        }
    }
}

/// An origin held by reference, made once per client: what a ``RequestContext`` carries, since a
/// context is copied at every step of the chain and an ``Origin`` is five strings.
final class SharedOrigin: Sendable {
    let origin: Origin

    init(_ origin: Origin) {
        self.origin = origin
    }
}
