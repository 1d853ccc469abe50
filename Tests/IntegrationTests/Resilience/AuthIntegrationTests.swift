import DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import Testing

/// Sign-in, single-flight refresh and sign-out against DemoAPI's rotating token routes, counted by
/// its stats: what really reached the server.
@Suite("Auth against DemoAPI", .timeLimit(.minutes(3)))
struct AuthIntegrationTests {
    struct Me: Decodable, Sendable {
        let username: String
        let displayName: String
    }

    static let me = Request<Me>(path: "/me")

    /// Counts the auth manager's sign-out callbacks and keeps their errors.
    final class SignOuts: Sendable {
        private let errors = LockedState<[String]>([])
        var count: Int { errors.withLock { $0.count } }
        var handler: TokenRefresher.SignOutHandler { { error in self.errors.withLock { $0.append("\(error)") } } }
    }

    /// An auth manager over a plain client of its own, and the app's client carrying its middleware.
    static func session(
        _ server: DemoServer, _ kind: TransportKind, routes: AuthManager.Routes = AuthManager.Routes(),
        signOuts: SignOuts = SignOuts()
    ) -> (AuthManager, LiveAPIClient) {
        let manager = AuthManager(client: makeClient(server, kind), routes: routes, onSignOut: signOuts.handler)
        let api = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: kind.transport, middlewares: [manager.middleware]))
        return (manager, api)
    }

    /// Refreshes held open on the server (1 s, generous for a loaded CI machine) so that concurrent
    /// callers overlap with them.
    static let slowRefresh = AuthManager.Routes(refreshQuery: [URLQueryItem(name: "delay_ms", value: "1000")])
    /// A refresh the server holds until it is sent `GET /films`: the test lets it finish once every
    /// call of a burst has joined it, however slow the machine (URLSession on Linux sends 6 at a
    /// time, and a call whose 401 came after the refusal would fail with its own).
    static let heldRefresh = AuthManager.Routes(
        refreshQuery: [URLQueryItem(name: "wait_route", value: "GET /films"), URLQueryItem(name: "wait_count", value: "1")])

    /// Makes woody's current access token expire now on the server (the refresh token stays valid).
    static func expireAccessToken(_ server: DemoServer, _ kind: TransportKind) async throws {
        try await makeClient(server, kind).send(
            Request<Void>(path: "/auth/expire", method: .post, query: [URLQueryItem(name: "username", value: "woody")]))
    }

    @Test("login through the auth manager, /me with the bearer token, logout", arguments: TransportKind.allCases)
    func loginAndLogout(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let (manager, api) = Self.session(server, kind)
            let anonymous = await networkError { _ = try await api.send(Self.me) }
            #expect(anonymous?.statusCode == 401)

            let token = try await manager.login(username: "buzz", password: "infinity")
            #expect(token.refreshToken != nil)
            #expect(token.expiresAt.map { $0 > Date() } == true)
            let me = try await api.send(Self.me)
            #expect(me.username == "buzz")
            #expect(me.displayName == "Buzz Lightyear")

            try await manager.logout()
            #expect(try await manager.isAuthenticated == false)
            let afterLogout = await networkError { _ = try await api.send(Self.me) }
            #expect(afterLogout?.statusCode == 401)
            #expect(server.stats.snapshot.logins == 1)
            #expect(server.stats.snapshot.refreshes == 0)
        }
    }

    @Test("wrong credentials: invalidCredentials with the server's message, no session", arguments: TransportKind.allCases)
    func wrongCredentials(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let (manager, _) = Self.session(server, kind)
            let error = await networkError { try await manager.login(username: "woody", password: "sid") }
            // A 401 from sign-in is wrong credentials, not "Your session has expired".
            guard case .invalidCredentials(let failure)? = error else {
                Issue.record("expected invalidCredentials, got \(String(describing: error))")
                return
            }
            #expect(failure.serverMessage == "Wrong username or password.")
            #expect(error?.localizedDescription == "Wrong username or password.")
            #expect(error?.statusCode == 401)
            let authenticated = try await manager.isAuthenticated
            #expect(!authenticated)
        }
    }

    @Test("20 concurrent calls with an expired token: one refresh, all 20 succeed", arguments: TransportKind.allCases)
    func concurrentCallsShareOneRefresh(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let (manager, api) = Self.session(server, kind, routes: Self.slowRefresh)
            let first = try await manager.login(username: "woody", password: "andy")
            try await Self.expireAccessToken(server, kind)

            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await api.send(Self.me).username }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }

            #expect(names == Array(repeating: "woody", count: 20))
            #expect(server.stats.snapshot.refreshes == 1)
            let current = try #require(try await manager.refresher.token())
            #expect(current.accessToken != first.accessToken)
            #expect(current.refreshToken != first.refreshToken)
            // The rotated token keeps working, with no further refresh.
            #expect(try await api.send(Self.me).username == "woody")
            #expect(server.stats.snapshot.refreshes == 1)
        }
    }

    @Test("a refused refresh: every waiting call gets the same error, sign-out fires once", arguments: TransportKind.allCases)
    func refusedRefresh(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let signOuts = SignOuts()
            let (manager, api) = Self.session(server, kind, routes: Self.heldRefresh, signOuts: signOuts)
            try await manager.login(username: "woody", password: "andy")
            // Woody signs in on another device: the server replaces his session, so both tokens
            // this manager holds are refused from now on.
            try await AuthManager(client: makeClient(server, kind)).login(username: "woody", password: "andy")

            let errors = try await withThrowingTaskGroup(of: NetworkError?.self) { group in
                for _ in 0..<10 {
                    group.addTask { await networkError { _ = try await api.send(Self.me) } }
                }
                // Every call has had its 401 and waits on the one refresh: let the server answer it.
                for _ in 0..<120_000 where await manager.refresher.waitingCallerCount < 10 {
                    try await Task.sleep(for: .milliseconds(1))
                }
                _ = try await makeClient(server, kind).send(Request<Data>(path: "/films"))
                return try await group.reduce(into: [NetworkError?]()) { $0.append($1) }
            }

            #expect(errors.count == 10)
            for error in errors {
                guard case .unauthorized(let failure)? = error else {
                    Issue.record("expected unauthorized, got \(String(describing: error))")
                    continue
                }
                // The refresh's refusal, not each call's own 401 from /me.
                #expect(failure.request.url?.path == "/auth/refresh")
                #expect(failure.serverMessage == "The refresh token is invalid, expired or already used.")
            }
            #expect(Set(errors.map { String(describing: $0) }).count == 1)
            #expect(signOuts.count == 1)
            #expect(server.stats.snapshot.refreshes == 1)
            #expect(try await manager.isAuthenticated == false)

            // Signed out: a later call is refused without another refresh or sign-out.
            let later = await networkError { _ = try await api.send(Self.me) }
            #expect(later?.statusCode == 401)
            #expect(server.stats.snapshot.refreshes == 1)
            #expect(signOuts.count == 1)
        }
    }

    @Test("a token about to expire is refreshed before it is sent", arguments: TransportKind.allCases)
    func proactiveRefresh(kind: TransportKind) async throws {
        try await withDemoServer { server in
            // The app's clock stands still, then jumps 250 s ahead after sign-in: a 300-second token
            // then has 50 s left, inside its margin (the default 60 s). Standing still, it cannot
            // reach the margin by itself on a slow machine (a 30-second token with a real clock did,
            // with both cores busy); the server's 300 s are far from any test's length.
            let offset = LockedState<TimeInterval>(0)
            let start = Date()
            let routes = AuthManager.Routes(loginQuery: [URLQueryItem(name: "ttl", value: "300")])
            let manager = AuthManager(
                client: makeClient(server, kind), routes: routes,
                now: { start.addingTimeInterval(offset.withLock { $0 }) })
            let api = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: server.baseURL, transport: kind.transport, middlewares: [manager.middleware]))
            let first = try await manager.login(username: "woody", password: "andy")

            // Fresh: sent as it is.
            #expect(try await api.send(Self.me).username == "woody")
            #expect(server.stats.snapshot.refreshes == 0)

            offset.withLock { $0 = 250 }
            #expect(try await api.send(Self.me).username == "woody")
            #expect(server.stats.snapshot.refreshes == 1)
            #expect(try await manager.refresher.token()?.accessToken != first.accessToken)
            #expect(server.stats.count("GET /me") == 2)  // each sent once, the second with the new token
        }
    }
}
