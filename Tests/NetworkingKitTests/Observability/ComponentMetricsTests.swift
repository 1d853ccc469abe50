import Foundation
import MetricsTestKit
import NetworkingKit
import NetworkingKitTesting
import Testing

/// The counters that the retry, refresh and de-duplication components keep themselves, since a
/// metrics middleware outside them cannot see their work.
@Suite("Component metrics", .timeLimit(.minutes(5)))
struct ComponentMetricsTests {
    @Test("every retry is counted")
    func retries() async throws {
        let metrics = TestMetrics()
        let (client, _) = makeClient(
            middlewares: [
                RetryMiddleware(
                    policy: RetryPolicy(jitter: .none), budget: nil, clock: ImmediateClock(), metricsFactory: metrics)
            ]
        ) { request in
            request.attempt <= 2 ? .status(.serviceUnavailable) : .status(.noContent)
        }
        try await client.request(TestEndpoint(path: "/flaky"))
        #expect(metrics.counterTotal(label: "networkingkit_retries_total") == 2)
    }

    @Test("every token refresh is counted")
    func refreshes() async throws {
        let metrics = TestMetrics()
        let server = FakeTokenServer()
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken), metricsFactory: metrics) {
            try await server.refresh($0)
        }
        let (client, _) = makeAuthClient(refresher, server)
        server.expireAccessToken()
        _ = try await client.request(meEndpoint, as: String.self)
        #expect(metrics.counterTotal(label: "networkingkit_token_refreshes_total") == 1)
    }

    @Test("every caller that joins a call already in flight is counted")
    func deduplicated() async throws {
        let metrics = TestMetrics()
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator(metricsFactory: metrics)
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            return .text("Toy Story")
        }
        let callers = (0..<3).map { _ in Task { try await client.send(Request<Data>(path: "/films")) } }
        await waitUntil { deduplicator.waiterCount == 3 }
        gate.open()
        for caller in callers { _ = try await caller.value }
        #expect(transport.requests.count == 1)
        #expect(metrics.counterTotal(label: "networkingkit_deduplicated_total") == 2)
    }
}
