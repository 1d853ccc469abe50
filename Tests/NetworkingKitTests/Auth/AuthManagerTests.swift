import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Auth: the auth manager")
struct AuthManagerTests {
    /// A stub of DemoAPI's auth routes: login for woody/andy, refresh that answers `refreshAnswer`.
    private func makeManager(
        routes: AuthManager.Routes = AuthManager.Routes(),
        clock: ManualDate = ManualDate(),
        refreshAnswer: String = #"{"access_token":"at-2","refresh_token":"rt-2","token_type":"bearer","expires_in":900}"#
    ) -> (AuthManager, StubTransport) {
        let (client, transport) = makeClient { request in
            switch request.path {
            case "/v1/auth/login":
                guard request.bodyText == #"{"password":"andy","username":"woody"}"# else {
                    return .json(#"{"message":"Wrong username or password."}"#, status: .unauthorized)
                }
                return .json(#"{"access_token":"at-1","refresh_token":"rt-1","token_type":"Bearer","expires_in":3600}"#)
            case "/v1/auth/refresh":
                return .json(refreshAnswer)
            case "/v1/auth/logout":
                return .status(.noContent)
            default:
                return .status(.notFound)
            }
        }
        return (AuthManager(client: client, routes: routes, now: clock.source), transport)
    }

    @Test("login posts the credentials without a token and stores the answer with its expiry")
    func login() async throws {
        let clock = ManualDate()
        let (manager, transport) = makeManager(clock: clock)
        #expect(try await manager.isAuthenticated == false)

        let token = try await manager.login(username: "woody", password: "andy")
        #expect(token == AuthToken(accessToken: "at-1", refreshToken: "rt-1", expiresAt: clock.now.addingTimeInterval(3600)))
        #expect(try await manager.refresher.token() == token)
        #expect(try await manager.isAuthenticated)

        let sent = try #require(transport.requests.first)
        #expect(sent.method == .post)
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.header("Authorization") == nil)
    }

    @Test("wrong credentials are invalidCredentials with the server's message, and leave no session")
    func wrongCredentials() async throws {
        let (manager, _) = makeManager()
        let error = await networkError { try await manager.login(username: "woody", password: "sid") }
        // A 401 from sign-in is wrong credentials, not "Your session has expired".
        guard case .invalidCredentials(let failure)? = error else {
            Issue.record("expected invalidCredentials, got \(String(describing: error))")
            return
        }
        #expect(failure.serverMessage == "Wrong username or password.")
        #expect(error?.localizedDescription == "Wrong username or password.")
        #expect(error?.statusCode == 401)
        #expect(try await manager.isAuthenticated == false)
    }

    @Test("refresh posts the refresh token to the configured route and keeps the new pair")
    func refresh() async throws {
        let clock = ManualDate()
        let routes = AuthManager.Routes(refreshQuery: [URLQueryItem(name: "delay_ms", value: "5")])
        let (manager, transport) = makeManager(routes: routes, clock: clock)
        try await manager.login(username: "woody", password: "andy")
        clock.advance(by: 10)

        let token = try await manager.refresh()
        let expected = AuthToken(
            accessToken: "at-2", refreshToken: "rt-2", tokenType: "bearer", expiresAt: clock.now.addingTimeInterval(900))
        #expect(token == expected)
        let sent = try #require(transport.requests.last)
        #expect(sent.path == "/v1/auth/refresh")
        #expect(sent.query == "delay_ms=5")
        #expect(sent.bodyText == #"{"refresh_token":"rt-1"}"#)
        #expect(sent.header("Authorization") == nil)
    }

    @Test("a refresh answer without a refresh token keeps the old one")
    func refreshKeepsRefreshToken() async throws {
        let (manager, _) = makeManager(refreshAnswer: #"{"access_token":"at-2","expires_in":60}"#)
        try await manager.login(username: "woody", password: "andy")
        let token = try await manager.refresh()
        #expect(token.accessToken == "at-2")
        #expect(token.refreshToken == "rt-1")
        #expect(token.tokenType == "Bearer")
    }

    @Test("an answer that is not a token fails with decodingFailed and keeps the session")
    func malformedAnswer() async throws {
        let (manager, _) = makeManager(refreshAnswer: #"{"token":"?"}"#)
        try await manager.login(username: "woody", password: "andy")
        let error = await networkError { try await manager.refresh() }
        guard case .decodingFailed(let failure)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath.isEmpty || failure.reason.contains("access_token"))
        #expect(try await manager.refresher.token()?.accessToken == "at-1")
    }

    @Test("logout forgets the token and tells the logout route when there is one")
    func logout() async throws {
        let (local, localTransport) = makeManager()
        try await local.login(username: "woody", password: "andy")
        try await local.logout()
        #expect(try await local.isAuthenticated == false)
        #expect(localTransport.requests.count == 1)  // the login only

        let (remote, remoteTransport) = makeManager(routes: AuthManager.Routes(logout: "/auth/logout"))
        try await remote.login(username: "woody", password: "andy")
        try await remote.logout()
        #expect(try await remote.isAuthenticated == false)
        let sent = try #require(remoteTransport.requests.last)
        #expect(sent.path == "/v1/auth/logout")
        #expect(sent.bodyText == #"{"refresh_token":"rt-1"}"#)
    }

    @Test("the manager's middleware sends the manager's token")
    func middleware() async throws {
        let (manager, _) = makeManager()
        try await manager.login(username: "woody", password: "andy")
        let (api, transport) = makeClient(middlewares: [manager.middleware]) { _ in .json("{}") }
        _ = try await api.request(meEndpoint, as: EmptyResponse.self)
        #expect(transport.requests.first?.header("Authorization") == "Bearer at-1")
    }
}
