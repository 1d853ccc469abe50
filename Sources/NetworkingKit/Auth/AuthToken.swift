public import Foundation

/// An access token, the refresh token that renews it, and when it expires: what a ``TokenStore``
/// keeps and what ``AuthenticationMiddleware`` sends.
///
/// ```swift
/// let token = AuthToken(accessToken: "at_123", refreshToken: "rt_456", expiresAt: .now + 3600)
/// try await refresher.setToken(token)
/// ```
///
/// The expiry is a wall-clock `Date`, not a monotonic instant, because a stored token outlives the
/// process that received it. Its `description` leaves the secrets out, so a token that ends up in
/// a log line or a test failure does not leak.
public struct AuthToken: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The credential sent with each request.
    public var accessToken: String
    /// The credential that obtains a new access token, or `nil` when the server issued none; a
    /// token without one cannot be refreshed.
    public var refreshToken: String?
    /// The authorization scheme, `Bearer` for OAuth 2 servers.
    public var tokenType: String
    /// When the access token stops being accepted, or `nil` when the server did not say.
    public var expiresAt: Date?

    /// Creates a token.
    /// - Parameters:
    ///   - accessToken: The credential sent with each request.
    ///   - refreshToken: The credential that renews it, if any.
    ///   - tokenType: The authorization scheme; `Bearer` by default.
    ///   - expiresAt: When the access token expires, if known.
    public init(accessToken: String, refreshToken: String? = nil, tokenType: String = "Bearer", expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
    }

    /// Creates a token from an OAuth 2 style answer, whose lifetime is relative (`expires_in`).
    /// - Parameters:
    ///   - accessToken: The credential sent with each request.
    ///   - refreshToken: The credential that renews it, if any.
    ///   - tokenType: The authorization scheme; `Bearer` by default.
    ///   - expiresIn: The lifetime in seconds, if the server gave one.
    ///   - issuedAt: When the answer arrived; `expiresAt` is this plus `expiresIn`.
    public init(
        accessToken: String, refreshToken: String?, tokenType: String = "Bearer", expiresIn: TimeInterval?, issuedAt: Date
    ) {
        self.init(
            accessToken: accessToken, refreshToken: refreshToken, tokenType: tokenType,
            expiresAt: expiresIn.map { issuedAt.addingTimeInterval($0) })
    }

    /// The `Authorization` header value: `Bearer <access token>`.
    ///
    /// Servers often answer `bearer` in lowercase; the scheme is case-insensitive (RFC 9110
    /// §11.1), but some servers compare it exactly, so the usual spelling is sent.
    public var authorizationValue: String {
        let scheme = tokenType.isEmpty || tokenType.lowercased() == "bearer" ? "Bearer" : tokenType
        return "\(scheme) \(accessToken)"
    }

    /// Whether the token expires within `margin` of `now` (or has expired); `false` when its
    /// expiry is unknown.
    public func expires(within margin: Duration, of now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= margin.timeInterval
    }

    /// `AuthToken(Bearer, refreshable, expires 2025-01-01T00:00:00Z)`, without the secrets.
    public var description: String {
        var parts = [tokenType.isEmpty ? "Bearer" : tokenType, refreshToken == nil ? "not refreshable" : "refreshable"]
        if let expiresAt { parts.append("expires \(expiresAt.formatted(.iso8601))") }
        return "AuthToken(\(parts.joined(separator: ", ")))"
    }

    /// No children: `dump` and test failure output walk a value's stored properties, which would
    /// print the secrets that ``description`` leaves out.
    public var customMirror: Mirror {
        Mirror(self, children: [], displayStyle: .struct)
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
    }

    /// Reads the stored form: a token whose file was written by an older build without a type
    /// is still a bearer token.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "Bearer"
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
    }

    /// The stored form of a token, shared by the file and Keychain stores so that either can read
    /// what the other wrote: dates as seconds since 1970, whatever the app's client uses.
    static func storageEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// Decodes what ``storageEncoder()`` wrote.
    static func storageDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
