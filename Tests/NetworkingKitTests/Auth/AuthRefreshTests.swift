import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Auth: single-flight refresh, failures and the refresh window", .timeLimit(.minutes(5)))
struct AuthRefreshTests {
    private static let callers = 12

    /// Sends `count` concurrent `GET /me` and returns each call's outcome once the refresh they
    /// wait for has been let through.
    private func concurrentCalls(
        _ count: Int, client: LiveAPIClient, refresher: TokenRefresher, gate: RefreshGate
    ) async -> [Result<String, NetworkError>] {
        await withTaskGroup(of: Result<String, NetworkError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        return .success(try await client.request(meEndpoint, as: String.self))
                    } catch {
                        return .failure(error as? NetworkError ?? .unknown(error))
                    }
                }
            }
            // Every caller has joined the one refresh before it is allowed to answer, so the test
            // proves the single flight itself, not the stale-token rule.
            await waitUntil("all callers wait for the refresh") { await refresher.waitingCallerCount == count }
            gate.open()
            var results: [Result<String, NetworkError>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test("concurrent 401s share exactly one refresh, and every call is replayed with the new token")
    func concurrentRefusalsShareOneRefresh() async throws {
        let gate = RefreshGate()
        let server = FakeTokenServer(gate: gate)
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken)) { try await server.refresh($0) }
        let (client, transport) = makeAuthClient(refresher, server)
        server.expireAccessToken()

        let results = await concurrentCalls(Self.callers, client: client, refresher: refresher, gate: gate)

        #expect(results.allSatisfy { (try? $0.get())?.contains("woody") == true })
        #expect(server.refreshCount == 1)
        // A caller that asked for its token after the refresh had started waited for it instead of
        // sending the old token; every call went out once with the new one.
        let sent = transport.requests.map { $0.header("Authorization") }
        #expect(sent.filter { $0 == "Bearer at-2" }.count == Self.callers)
        #expect(sent.allSatisfy { $0 == "Bearer at-1" || $0 == "Bearer at-2" })
        #expect(try await refresher.token() == AuthToken(accessToken: "at-2", refreshToken: "rt-2"))
    }

    @Test("a refused refresh gives every waiting call the same error and signs out once")
    func refusedRefresh() async throws {
        let gate = RefreshGate()
        let server = FakeTokenServer(gate: gate)
        let signOuts = SignOutRecorder()
        let store = InMemoryTokenStore(server.currentToken)
        let refresher = TokenRefresher(store: store, onSignOut: signOuts.handler) { try await server.refresh($0) }
        let (client, transport) = makeAuthClient(refresher, server)
        server.expireAccessToken()
        server.failRefreshes(with: NetworkError.unauthorized(FakeTokenServer.refusal))

        let results = await concurrentCalls(Self.callers, client: client, refresher: refresher, gate: gate)

        let errors = results.compactMap { result -> NetworkError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(errors.count == Self.callers)
        for error in errors {
            guard case .unauthorized(let failure) = error else {
                Issue.record("expected unauthorized, got \(error)")
                continue
            }
            // The refresh's own error, not each call's 401.
            #expect(failure.request == FakeTokenServer.refusal.request)
        }
        #expect(Set(errors.map { String(describing: $0) }).count == 1)
        #expect(signOuts.count == 1)
        #expect(server.refreshCount == 1)
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == "Bearer at-1" })  // nothing replayed
        #expect(try await refresher.token() == nil)
        #expect(await store.token() == nil)

        // Signed out: the next call goes without a token and does not try to refresh.
        _ = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
        #expect(transport.requests.last?.header("Authorization") == nil)
        #expect(server.refreshCount == 1)
        #expect(signOuts.count == 1)
    }

    @Test("a refresh that throws an AuthenticationError gives that error to every waiting call")
    func refreshThrowsAuthenticationError() async throws {
        let gate = RefreshGate()
        let server = FakeTokenServer(gate: gate)
        let signOuts = SignOutRecorder()
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken), onSignOut: signOuts.handler) {
            try await server.refresh($0)
        }
        let (client, transport) = makeAuthClient(refresher, server)
        server.expireAccessToken()
        server.failRefreshes(with: AuthenticationError.notAuthenticated)

        let results = await concurrentCalls(Self.callers, client: client, refresher: refresher, gate: gate)
        for result in results {
            guard case .failure(.unknown(let error)) = result, error as? AuthenticationError == .notAuthenticated else {
                Issue.record("expected the refresh's AuthenticationError, got \(result)")
                continue
            }
        }
        #expect(signOuts.count == 1)
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == "Bearer at-1" })  // nothing replayed
    }

    @Test("a refresh that fails in transit fails the waiting calls but keeps the session")
    func transientRefreshFailure() async throws {
        let gate = RefreshGate()
        let server = FakeTokenServer(gate: gate)
        let signOuts = SignOutRecorder()
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken), onSignOut: signOuts.handler) {
            try await server.refresh($0)
        }
        let (client, _) = makeAuthClient(refresher, server)
        server.expireAccessToken()
        server.failRefreshes(with: NetworkError.transport(TransportFailure(kind: .connectionLost)))

        let results = await concurrentCalls(4, client: client, refresher: refresher, gate: gate)

        for result in results {
            guard case .failure(.transport(let failure)) = result else {
                Issue.record("expected a transport failure, got \(result)")
                continue
            }
            #expect(failure.kind == .connectionLost)
        }
        #expect(signOuts.count == 0)
        #expect(try await refresher.token()?.accessToken == "at-1")
    }

    @Test("a cancelled caller stops waiting at once; the refresh goes on for the others")
    func cancelledWaiter() async throws {
        let gate = RefreshGate()
        let server = FakeTokenServer(gate: gate)
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken)) { try await server.refresh($0) }
        let (client, _) = makeAuthClient(refresher, server)
        server.expireAccessToken()

        let patient = Task { try await client.request(meEndpoint, as: String.self) }
        let impatient = Task { try await client.request(meEndpoint, as: String.self) }
        await waitUntil("both callers wait for the refresh") { await refresher.waitingCallerCount == 2 }

        impatient.cancel()
        let cancelled = await networkError { _ = try await impatient.value }
        #expect(cancelled.map { if case .cancelled = $0 { true } else { false } } == true)
        #expect(await refresher.waitingCallerCount == 1)

        gate.open()
        #expect(try await patient.value.contains("woody"))
        #expect(server.refreshCount == 1)
        #expect(try await refresher.token()?.accessToken == "at-2")
    }

    @Test("past the refresh window, calls fail with the 401 without refreshing, until the window moves on")
    func refreshWindow() async throws {
        let server = FakeTokenServer()
        let clock = ManualDate()
        let window = RefreshWindow(maximumRefreshes: 5, interval: .seconds(30))
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken), refreshWindow: window, now: clock.source) {
            try await server.refresh($0)
        }
        // A server that refuses every token, however new: the loop the window exists to stop.
        let (client, transport) = makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: refresher)]) { _ in
            .status(.unauthorized)
        }

        for call in 1...5 {
            let error = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
            #expect(error?.statusCode == 401)
            #expect(server.refreshCount == call)
            clock.advance(by: 1)
        }
        let before = transport.requests.count
        let error = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
        #expect(error?.statusCode == 401)
        #expect(server.refreshCount == 5)
        #expect(transport.requests.count == before + 1)  // sent once, not replayed

        await #expect(throws: AuthenticationError.refreshWindowExceeded(window)) { try await refresher.refresh() }

        clock.advance(by: 25)  // the first refresh is now 30 s old and leaves the window
        _ = await networkError { _ = try await client.request(meEndpoint, as: String.self) }
        #expect(server.refreshCount == 6)
    }

    @Test("refresh() without a session says so")
    func refreshWhenSignedOut() async throws {
        let refresher = TokenRefresher { _ in AuthToken(accessToken: "never") }
        await #expect(throws: AuthenticationError.notAuthenticated) { try await refresher.refresh() }
        try await refresher.setToken(AuthToken(accessToken: "at-1"))
        await #expect(throws: AuthenticationError.notAuthenticated) { try await refresher.refresh() }
    }

    @Test("a sign-in while a refresh runs wins over the refresh's answer")
    func signInDuringRefresh() async throws {
        let gate = RefreshGate()
        let server = FakeTokenServer(gate: gate)
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken)) { try await server.refresh($0) }
        let refreshing = Task { try await refresher.refresh() }
        await waitUntil("the refresh waits") { await refresher.waitingCallerCount == 1 }

        try await refresher.setToken(AuthToken(accessToken: "signed-in", refreshToken: "rt-new"))
        gate.open()
        #expect(try await refreshing.value.accessToken == "signed-in")
        #expect(try await refresher.token()?.accessToken == "signed-in")
    }
}
