import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Auth: the authentication middleware")
struct AuthenticationMiddlewareTests {
    private func refresher(_ server: FakeTokenServer, token: AuthToken? = nil, clock: ManualDate = ManualDate())
        -> TokenRefresher
    {
        TokenRefresher(store: InMemoryTokenStore(token ?? server.currentToken), now: clock.source) { token in
            try await server.refresh(token, now: clock.now)
        }
    }

    @Test("adds the bearer token to requests that need it")
    func addsHeader() async throws {
        let server = FakeTokenServer()
        let (client, transport) = makeAuthClient(refresher(server), server)
        let body = try await client.request(meEndpoint, as: String.self)
        #expect(body.contains("woody"))
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer at-1"])
    }

    @Test("an endpoint that opts out is sent without a token")
    func optOut() async throws {
        let server = FakeTokenServer()
        let (client, transport) = makeAuthClient(refresher(server), server)
        var options = RequestOptions()
        options.requiresAuthentication = false
        #expect(RequestOptions().requiresAuthentication)

        let optedOut = TestEndpoint(path: "/me", options: options)
        let error = await networkError { _ = try await client.request(optedOut, as: String.self) }
        guard case .unauthorized? = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.header("Authorization") == nil)
        #expect(server.refreshCount == 0)
    }

    @Test("an endpoint's own Authorization header is kept, and a request without a session goes out bare")
    func ownHeaderAndSignedOut() async throws {
        let server = FakeTokenServer()
        let (client, transport) = makeAuthClient(refresher(server), server)
        let basic = TestEndpoint(path: "/me", headers: ["Authorization": "Basic d29vZHk6YW5keQ=="])
        _ = await networkError { _ = try await client.request(basic, as: String.self) }
        #expect(transport.requests.last?.header("Authorization") == "Basic d29vZHk6YW5keQ==")

        let signedOut = TokenRefresher(store: InMemoryTokenStore()) { try await server.refresh($0) }
        let (anonymous, anonymousTransport) = makeAuthClient(signedOut, server)
        let error = await networkError { _ = try await anonymous.request(meEndpoint, as: String.self) }
        guard case .unauthorized? = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(anonymousTransport.requests.map { $0.header("Authorization") } == [nil])
        #expect(server.refreshCount == 0)
    }

    @Test("a 401 refreshes once and replays the request with the new token")
    func refreshAndReplay() async throws {
        let server = FakeTokenServer()
        let (client, transport) = makeAuthClient(refresher(server), server)
        server.expireAccessToken()

        let body = try await client.request(meEndpoint, as: String.self)
        #expect(body.contains("woody"))
        #expect(server.refreshCount == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer at-1", "Bearer at-2"])
        #expect(transport.requests.map(\.attempt) == [1, 2])
    }

    @Test("a replay that is refused again returns that 401, without a second refresh")
    func replayOnce() async throws {
        let server = FakeTokenServer()
        let refresher = refresher(server)
        let (client, transport) = makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: refresher)]) { _ in
            .json(#"{"message":"no"}"#, status: .unauthorized)
        }
        let error = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
        guard case .unauthorized(let failure)? = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(failure.serverMessage == "no")
        #expect(transport.requests.count == 2)
        #expect(server.refreshCount == 1)
    }

    @Test("a request refused with a token already replaced is replayed with the current one, without a refresh")
    func staleTokenReplayedWithoutRefresh() async throws {
        let server = FakeTokenServer()
        let refresher = refresher(server)
        // The first request is answered only after another caller has refreshed: it was sent with
        // a token that is no longer the current one by the time its 401 arrives.
        let (client, transport) = makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: refresher)]) { request in
            if request.header("Authorization") == "Bearer at-1" {
                _ = try await refresher.refresh()
            }
            return server.answer(request)
        }

        let body = try await client.request(meEndpoint, as: String.self)
        #expect(body.contains("woody"))
        #expect(server.refreshCount == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer at-1", "Bearer at-2"])
    }

    @Test("a one-shot body is not replayed: the 401 is the answer")
    func oneShotBodyNotReplayed() async throws {
        let server = FakeTokenServer()
        let (client, transport) = makeAuthClient(refresher(server), server)
        server.expireAccessToken()
        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data("photo".utf8))
            continuation.finish()
        }
        let upload = TestEndpoint(
            path: "/me", method: .post,
            requestBody: .stream(HTTPBody(stream, length: .known(5), iterationBehavior: .single)))

        let error = await networkError { _ = try await client.request(upload, as: String.self) }
        guard case .unauthorized(let failure)? = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(failure.serverMessage == "The access token is invalid.")
        #expect(transport.requests.count == 1)
        #expect(server.refreshCount == 0)
    }

    @Test("a buffered body is replayed byte for byte")
    func bufferedBodyReplayed() async throws {
        let server = FakeTokenServer()
        let (client, transport) = makeAuthClient(refresher(server), server)
        server.expireAccessToken()
        let post = TestEndpoint(path: "/me", method: .post, requestBody: .text("hello"))

        _ = try await client.request(post, as: String.self)
        #expect(transport.requests.map(\.bodyText) == ["hello", "hello"])
    }

    @Test("a token near its expiry is refreshed before the request is sent")
    func proactiveRefresh() async throws {
        let server = FakeTokenServer()
        let clock = ManualDate()
        var token = server.currentToken
        token.expiresAt = clock.now.addingTimeInterval(120)
        let refresher = refresher(server, token: token, clock: clock)
        let (client, transport) = makeAuthClient(refresher, server)

        _ = try await client.request(meEndpoint, as: String.self)
        #expect(server.refreshCount == 0)

        clock.advance(by: 61)  // 59 s left: inside the 60 s margin
        _ = try await client.request(meEndpoint, as: String.self)
        #expect(server.refreshCount == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer at-1", "Bearer at-2"])
        #expect(try await refresher.token()?.expiresAt == clock.now.addingTimeInterval(3600))
    }

    @Test("a token living no longer than the margin is not refreshed on every call")
    func shortLivedToken() async throws {
        let server = FakeTokenServer()
        let clock = ManualDate()
        // Signed in with a 40-second token: inside the 60 s margin from the first moment.
        let refresher = TokenRefresher(now: clock.source) { token in try await server.refresh(token, now: clock.now) }
        var token = server.currentToken
        token.expiresAt = clock.now.addingTimeInterval(40)
        try await refresher.setToken(token)
        let (client, _) = makeAuthClient(refresher, server)

        for _ in 0..<3 { _ = try await client.request(meEndpoint, as: String.self) }
        #expect(server.refreshCount == 0)

        clock.advance(by: 25)  // 15 s left: past half its life, so refreshed ahead now
        _ = try await client.request(meEndpoint, as: String.self)
        #expect(server.refreshCount == 1)
    }

    @Test("an early refresh that fails for a passing reason sends the token that still works")
    func failedProactiveRefreshFallsBack() async throws {
        let server = FakeTokenServer()
        let clock = ManualDate()
        var token = server.currentToken
        token.expiresAt = clock.now.addingTimeInterval(30)
        let (client, transport) = makeAuthClient(refresher(server, token: token, clock: clock), server)
        server.failRefreshes(with: NetworkError.transport(TransportFailure(kind: .connectionLost)))

        _ = try await client.request(meEndpoint, as: String.self)
        #expect(server.refreshCount == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer at-1"])
    }

    @Test("a token whose expiry is unknown is sent until the server refuses it")
    func unknownExpiryNotRefreshedAhead() async throws {
        let server = FakeTokenServer()
        let clock = ManualDate()
        let (client, _) = makeAuthClient(refresher(server, clock: clock), server)
        clock.advance(by: 86_400 * 365)
        _ = try await client.request(meEndpoint, as: String.self)
        #expect(server.refreshCount == 0)
    }

    @Test("a refresh sent through the authenticated client itself does not wait for itself")
    func refreshThroughSameClient() async throws {
        let server = FakeTokenServer()
        let box = LockedState<LiveAPIClient?>(nil)
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken)) { token in
            // Not opted out: without the refresh scope this request would join its own refresh.
            let client = try #require(box.withLock { $0 })
            _ = try await client.request(TestEndpoint(path: "/auth/refresh", method: .post), as: EmptyResponse.self)
            return try await server.refresh(token)
        }
        let (client, transport) = makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: refresher)]) { request in
            request.path == "/v1/auth/refresh" ? .status(.noContent) : server.answer(request)
        }
        box.withLock { $0 = client }
        server.expireAccessToken()

        _ = try await client.request(meEndpoint, as: String.self)
        let refreshRequest = try #require(transport.requests.first { $0.path == "/v1/auth/refresh" })
        #expect(refreshRequest.header("Authorization") == nil)
        #expect(server.refreshCount == 1)
    }

    @Test("a token with a CR or LF fails before anything is sent")
    func headerInjectionRefused() async throws {
        let server = FakeTokenServer()
        let injected = AuthToken(accessToken: "at-1\r\nX-Admin: yes")
        let (client, transport) = makeAuthClient(refresher(server, token: injected), server)
        let error = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
        guard case .invalidRequest? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("the Authorization field follows the current token: a bad one fails every call, and nothing of it is kept")
    func fieldFollowsToken() async throws {
        let server = FakeTokenServer()
        let session = refresher(server)
        let (client, transport) = makeAuthClient(session, server)
        _ = try await client.request(meEndpoint, as: String.self)
        try await session.setToken(AuthToken(accessToken: "at-1\r\nX-Admin: yes"))
        for _ in 0..<2 {
            let error = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
            guard case .invalidRequest? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
        }
        try await session.setToken(server.currentToken)
        _ = try await client.request(meEndpoint, as: String.self)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer at-1", "Bearer at-1"])
    }
}
