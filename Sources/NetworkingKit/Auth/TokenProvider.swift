/// What ``AuthenticationMiddleware`` asks for a token: the one to send now, and a replacement
/// when the server refused one (seed 002's `TokenProvider`).
///
/// ``TokenRefresher`` is the provider for tokens that expire and are refreshed. For a credential
/// that never changes, or one the app renews by itself, implement ``validToken()`` only:
///
/// ```swift
/// struct FixedTokenProvider: TokenProvider {
///     let token: AuthToken
///     func validToken() async throws -> AuthToken? { token }
/// }
/// ```
public protocol TokenProvider: Sendable {
    /// The token to send with the next request, or `nil` to send it without one (not signed in).
    ///
    /// A provider may refresh an expiring token before answering; an error it throws fails the
    /// call with that error.
    func validToken() async throws -> AuthToken?

    /// A token to send a request again with, after the server answered 401 to `rejected`; `nil`
    /// when there is none, and the 401 is then the call's answer.
    ///
    /// Called once per refused request; ``TokenRefresher`` coalesces concurrent calls into one
    /// refresh. An error it throws fails the call with that error.
    func token(replacing rejected: AuthToken) async throws -> AuthToken?
}

extension TokenProvider {
    /// No replacement: a provider that cannot refresh lets the 401 through.
    public func token(replacing rejected: AuthToken) async throws -> AuthToken? {
        nil
    }
}
