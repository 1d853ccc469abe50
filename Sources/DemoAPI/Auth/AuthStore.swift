#if DemoAPI
import Foundation

/// The two demo accounts and their sessions on one server.
///
/// Each user has at most one session: logging in or refreshing replaces it, so only the newest access
/// token and the newest refresh token of a user are accepted. That rotation is what lets tests catch a
/// client that refreshes twice or keeps using a replaced token.
struct AuthStore: Sendable {
    struct User: Sendable {
        var username: String
        var password: String
        var displayName: String
    }

    struct Session: Sendable {
        var accessToken: String
        var accessExpiry: ContinuousClock.Instant
        var refreshToken: String
        var refreshExpiry: ContinuousClock.Instant
    }

    /// Why an access token was refused; only decides the wording of the 401.
    enum Refusal: Error, Equatable {
        case unknown
        case expired
    }

    static let users: [User] = [
        User(username: "woody", password: "andy", displayName: "Woody"),
        User(username: "buzz", password: "infinity", displayName: "Buzz Lightyear"),
    ]

    private var sessions: [String: Session] = [:]

    static func user(named username: String) -> User? {
        users.first { $0.username == username }
    }

    /// A new session for valid credentials, replacing the user's previous one; `nil` otherwise.
    mutating func login(username: String, password: String, accessLifetime: Duration, refreshLifetime: Duration) -> Session? {
        guard let user = Self.user(named: username), user.password == password else { return nil }
        return startSession(for: user.username, accessLifetime: accessLifetime, refreshLifetime: refreshLifetime)
    }

    /// Exchanges the user's current, unexpired refresh token for a new session; `nil` for any other
    /// token, including one already exchanged.
    mutating func refresh(token: String, accessLifetime: Duration, refreshLifetime: Duration) -> Session? {
        let now = ContinuousClock.now
        guard let entry = sessions.first(where: { $0.value.refreshToken == token }),
            now < entry.value.refreshExpiry
        else { return nil }
        return startSession(for: entry.key, accessLifetime: accessLifetime, refreshLifetime: refreshLifetime)
    }

    /// Makes the user's current access token expire now (the refresh token stays valid); `false` for
    /// an unknown user.
    mutating func expireAccessToken(of username: String) -> Bool {
        guard Self.user(named: username) != nil else { return false }
        sessions[username]?.accessExpiry = .now
        return true
    }

    /// The user an access token belongs to, if it is their current one and has not expired.
    func user(forAccessToken token: String) -> Result<User, Refusal> {
        guard let entry = sessions.first(where: { $0.value.accessToken == token }),
            let user = Self.user(named: entry.key)
        else { return .failure(.unknown) }
        return ContinuousClock.now < entry.value.accessExpiry ? .success(user) : .failure(.expired)
    }

    private mutating func startSession(for username: String, accessLifetime: Duration, refreshLifetime: Duration) -> Session {
        let now = ContinuousClock.now
        let session = Session(
            accessToken: Self.newToken(prefix: "at"),
            accessExpiry: now + accessLifetime,
            refreshToken: Self.newToken(prefix: "rt"),
            refreshExpiry: now + refreshLifetime
        )
        sessions[username] = session
        return session
    }

    private static func newToken(prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    }
}
#endif
