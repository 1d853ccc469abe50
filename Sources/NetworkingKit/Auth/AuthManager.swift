public import Foundation

/// Signs in and out against an OAuth 2 style API and keeps the session's token fresh (seed 004's
/// `AuthManager`).
///
/// It talks to three routes (by default DemoAPI's): `POST /auth/login` with
/// `{"username","password"}`, `POST /auth/refresh` with `{"refresh_token"}`, both answering
/// `{"access_token","refresh_token","token_type","expires_in"}`, and optionally a logout route.
///
/// The manager needs a client to reach those routes, and the app's client needs the manager's
/// ``middleware``, so the manager gets a client of its own (same base URL, no authentication
/// middleware); its requests opt out of authentication anyway.
///
/// ```swift
/// let auth = AuthManager(
///     client: LiveAPIClient(baseURL: apiURL),
///     store: FileTokenStore(fileURL: tokenFile),
///     onSignOut: { _ in await appState.showSignIn() }
/// )
/// let api = LiveAPIClient(configuration: .init(baseURL: apiURL, middlewares: [auth.middleware]))
///
/// try await auth.login(username: "woody", password: "andy")
/// let me = try await api.send(Request<Me>(path: "/me"))   // Bearer token, refreshed as needed
/// try await auth.logout()
/// ```
public final class AuthManager: Sendable {
    /// Where the authentication routes are, relative to the client's base URL.
    public struct Routes: Sendable {
        /// The sign-in route.
        public var login: String
        /// Query parameters sent with every sign-in.
        public var loginQuery: [URLQueryItem]
        /// The route that exchanges a refresh token for new tokens.
        public var refresh: String
        /// Query parameters sent with every refresh.
        public var refreshQuery: [URLQueryItem]
        /// The route told about a sign-out (with the refresh token, to revoke it), or `nil` when
        /// signing out is local only.
        public var logout: String?

        /// Creates routes; the defaults are DemoAPI's.
        public init(
            login: String = "/auth/login",
            loginQuery: [URLQueryItem] = [],
            refresh: String = "/auth/refresh",
            refreshQuery: [URLQueryItem] = [],
            logout: String? = nil
        ) {
            self.login = login
            self.loginQuery = loginQuery
            self.refresh = refresh
            self.refreshQuery = refreshQuery
            self.logout = logout
        }
    }

    /// The refresher that holds the session's token; share it with other middlewares or clients
    /// that need the same session.
    public let refresher: TokenRefresher
    /// The routes this manager calls.
    public let routes: Routes
    private let client: any APIClient
    private let now: @Sendable () -> Date

    /// Creates a manager.
    /// - Parameters:
    ///   - client: The client for the authentication routes; it should not itself carry this
    ///     manager's middleware.
    ///   - routes: Where the routes are.
    ///   - store: Where the token is kept.
    ///   - refreshWindow: The limit on refreshes that stops refresh loops.
    ///   - refreshMargin: How long before its expiry a token is refreshed ahead of use.
    ///   - now: The current time, for expiries; inject one in tests.
    ///   - onSignOut: Called once when a refresh is refused and the session is over.
    public init(
        client: any APIClient,
        routes: Routes = Routes(),
        store: any TokenStore = InMemoryTokenStore(),
        refreshWindow: RefreshWindow = .default,
        refreshMargin: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() },
        onSignOut: @escaping TokenRefresher.SignOutHandler = { _ in }
    ) {
        self.client = client
        self.routes = routes
        self.now = now
        // The closure holds the client and routes, not the manager, so that the refresher (which
        // the app's client keeps through the middleware) does not keep the manager alive.
        self.refresher = TokenRefresher(
            store: store, refreshWindow: refreshWindow, refreshMargin: refreshMargin, now: now, onSignOut: onSignOut
        ) { token in
            guard let refreshToken = token.refreshToken else { throw AuthenticationError.notAuthenticated }
            return try await Self.requestToken(
                client, path: routes.refresh, query: routes.refreshQuery, fields: ["refresh_token": refreshToken],
                previous: token, now: now)
        }
    }

    /// The middleware to put in the app's client: it sends this manager's token and refreshes it.
    public var middleware: AuthenticationMiddleware {
        AuthenticationMiddleware(tokenProvider: refresher)
    }

    /// Signs in and stores the new token, replacing any previous session.
    /// - Returns: The new token.
    /// - Throws: The call's ``NetworkError``: ``NetworkError/invalidCredentials(_:)`` for wrong
    ///   credentials (a 401 here is not an expired session), ``NetworkError/validationFailed(_:)``
    ///   for missing ones.
    @discardableResult
    public func login(username: String, password: String) async throws -> AuthToken {
        let token: AuthToken
        do {
            token = try await Self.requestToken(
                client, path: routes.login, query: routes.loginQuery, fields: ["username": username, "password": password],
                previous: nil, now: now)
        } catch NetworkError.unauthorized(let failure) {
            throw NetworkError.invalidCredentials(failure)
        }
        try await refresher.setToken(token)
        return token
    }

    /// Refreshes the token now (or joins a refresh under way) and returns the new one.
    /// - Throws: ``AuthenticationError/notAuthenticated`` when signed out, or the refresh's error.
    @discardableResult
    public func refresh() async throws -> AuthToken {
        try await refresher.refresh()
    }

    /// Signs out: forgets the token, then tells the logout route, if there is one.
    ///
    /// The token is gone locally whatever the server says: signing out must work offline, and a
    /// refresh token the server failed to revoke is of no use once nobody holds it.
    public func logout() async throws {
        let token = try? await refresher.token()
        try await refresher.removeToken()
        guard let path = routes.logout, let refreshToken = token?.refreshToken else { return }
        _ = try? await client.response(Self.postRequest(path: path, query: [], fields: ["refresh_token": refreshToken]))
    }

    /// Whether there is a session: a token, even one that may need refreshing.
    public var isAuthenticated: Bool {
        get async throws { try await refresher.token() != nil }
    }

    // MARK: - The token endpoint

    /// The answer of the login and refresh routes (RFC 6749 §5.1).
    private struct TokenResponse: Decodable {
        var accessToken: String
        var refreshToken: String?
        var tokenType: String?
        var expiresIn: TimeInterval?

        private enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    /// Posts `fields` as JSON to a token route and reads the tokens it answers.
    ///
    /// The answer is decoded here with explicit keys, not with the client's decoder, so that the
    /// manager works whatever key strategy the app's client uses.
    private static func requestToken(
        _ client: any APIClient,
        path: String,
        query: [URLQueryItem],
        fields: [String: String],
        previous: AuthToken?,
        now: @Sendable () -> Date
    ) async throws -> AuthToken {
        // The lifetime is counted from before the request left, so the token is taken for expired
        // a little early rather than a little late.
        let issuedAt = now()
        let response = try await client.response(postRequest(path: path, query: query, fields: fields))
        let answer: TokenResponse
        do {
            answer = try JSONDecoder().decode(TokenResponse.self, from: response.value)
        } catch {
            // No snippet of the body: it may hold live tokens, and an error ends up in logs.
            throw NetworkError.decodingFailed(
                DecodingFailure(decoding: TokenResponse.self, from: Data(), error: error, request: response.request))
        }
        return AuthToken(
            accessToken: answer.accessToken,
            // RFC 6749 §6: a refresh answer without a refresh token means "keep using the old one".
            refreshToken: answer.refreshToken ?? previous?.refreshToken,
            tokenType: answer.tokenType ?? "Bearer",
            expiresIn: answer.expiresIn,
            issuedAt: issuedAt)
    }

    private static func postRequest(path: String, query: [URLQueryItem], fields: [String: String]) -> Request<Data> {
        var options = RequestOptions()
        // These routes take no bearer token, and a refresh sent through the authentication
        // middleware would wait for itself.
        options.requiresAuthentication = false
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A dictionary of strings always encodes; the fallback only spares a forced `try`.
        let body = (try? encoder.encode(fields)) ?? Data("{}".utf8)
        return Request(
            path: path, method: .post, query: query, headers: ["Accept": "application/json"],
            body: .data(body, contentType: "application/json"), options: options)
    }
}
