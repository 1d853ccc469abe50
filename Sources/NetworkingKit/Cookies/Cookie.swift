public import Foundation

/// A cookie as a ``CookieJar`` keeps it: what a server's `Set-Cookie` said, resolved against the
/// URL it came from (RFC 6265 §5.3).
public struct Cookie: Sendable, Hashable, Codable {
    /// What a cookie's `SameSite` attribute said (RFC 6265bis §5.6.7).
    ///
    /// Stored and shown, not enforced: an app's requests have no "site" that initiates them, so every
    /// request of a client is a same-site one and carries the cookies its URL matches.
    public enum SameSite: String, Sendable, Hashable, Codable {
        /// `SameSite=Strict`.
        case strict
        /// `SameSite=Lax`.
        case lax
        /// `SameSite=None` (which the jar accepts only with `Secure`, as browsers do).
        case none
        /// No `SameSite`, or a value that is none of the three.
        case unspecified
    }

    /// The cookie's name; empty for a `Set-Cookie` without `=` (RFC 6265bis).
    public var name: String
    /// The cookie's value, exactly as sent (quotes included).
    public var value: String
    /// The host the cookie goes to (``isHostOnly``), or the domain whose hosts it goes to.
    public var domain: String
    /// Whether the cookie goes only to the host that set it (no `Domain` attribute), not to its
    /// subdomains.
    public var isHostOnly: Bool
    /// The path whose requests carry the cookie, with the paths below it.
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lasts as long as its jar (a
    /// ``CookieJar`` in a file keeps it only when told to).
    public var expires: Date?
    /// Whether the cookie is sent over `https` only.
    public var isSecure: Bool
    /// Whether the server marked it `HttpOnly` (out of reach of a page's scripts: kept for a jar
    /// shared with a web view; every request of a client carries it either way).
    public var isHTTPOnly: Bool
    /// What its `SameSite` attribute said.
    public var sameSite: SameSite
    /// When the jar first stored a cookie of this name, domain and path.
    public var created: Date
    /// When the cookie was last sent or set: the jar evicts the least recently used first.
    public var lastAccessed: Date

    /// Creates a cookie, to put in a jar by hand (``CookieJar/insert(_:)``).
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/", expires: Date? = nil,
        isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite = .unspecified, created: Date = Date(),
        lastAccessed: Date? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain.lowercased()
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
        self.lastAccessed = lastAccessed ?? created
    }

    /// Whether the cookie lasts past its jar's session: it has an expiry.
    public var isPersistent: Bool { expires != nil }

    /// Whether it has expired at `now`.
    public func isExpired(at now: Date) -> Bool {
        expires.map { $0 <= now } ?? false
    }

    /// The cookie as a `Cookie` header carries it: `name=value`, or the value alone when the name
    /// is empty.
    var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// What identifies a cookie in the jar: a new one with the same name, domain and path (and
    /// host-only flag) replaces it.
    struct Identity: Hashable {
        let name: String
        let domain: String
        let isHostOnly: Bool
        let path: String
    }

    var identity: Identity { Identity(name: name, domain: domain, isHostOnly: isHostOnly, path: path) }
}

extension Cookie: CustomStringConvertible {
    /// The cookie without its value, which is a credential: `session (example.com/, secure,
    /// expires 2026-12-01T10:00:00Z)`.
    public var description: String {
        var traits: [String] = []
        if isSecure { traits.append("secure") }
        if isHTTPOnly { traits.append("HttpOnly") }
        if sameSite != .unspecified { traits.append("SameSite=\(sameSite.rawValue)") }
        traits.append(expires.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "session")
        let host = isHostOnly ? domain : ".\(domain)"
        return "\(name.isEmpty ? "(no name)" : name) (\(host)\(path), \(traits.joined(separator: ", ")))"
    }
}
