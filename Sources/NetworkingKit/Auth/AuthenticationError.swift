/// Why ``TokenRefresher`` could not produce a token, when no request to the server failed.
///
/// A refresh that reached the server and failed is reported with the refresh's own error
/// (``NetworkError/unauthorized(_:)`` for a refused refresh token, say), not with this type.
/// ``AuthenticationMiddleware`` never throws these: when it cannot get a new token, it hands the
/// server's 401 back, so the call fails with ``NetworkError/unauthorized(_:)`` as if there were no
/// middleware.
@nonexhaustive
public enum AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no token, or it has no refresh token: the user has to sign in.
    case notAuthenticated
    /// More refreshes were asked for than ``RefreshWindow`` allows: the server keeps refusing new
    /// tokens, and refreshing again would only loop.
    case refreshWindowExceeded(RefreshWindow)

    /// A sentence for logs and error reports.
    public var description: String {
        switch self {
        case .notAuthenticated:
            "not signed in: there is no token to refresh"
        case .refreshWindowExceeded(let window):
            "token refresh refused: more than \(window.maximumRefreshes) refreshes within \(window.interval)"
        }
    }
}
