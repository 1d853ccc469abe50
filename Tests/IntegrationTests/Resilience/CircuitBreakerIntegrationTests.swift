import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// The circuit breaker against a real server, counted by DemoAPI's stats: while the circuit is
/// open nothing reaches the server, while it is half-open only the probes do.
@Suite("Circuit breaker against DemoAPI", .timeLimit(.minutes(3)))
struct CircuitBreakerIntegrationTests {
    @Test("open: no call reaches the server; half-open: only the probes; closed again once they succeed", arguments: TransportKind.allCases)
    func serverSeesOnlyProbes(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let clock = ManualClock()
            let breaker = CircuitBreaker(policy: CircuitBreaker.Policy(minimumCalls: 4, halfOpenProbes: 2), clock: clock)
            let client = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(baseURL: server.baseURL, transport: kind.transport, middlewares: [breaker]))
            // 503 for the first 6 requests of the key, then 200.
            let failing = Request<Void>(
                path: "/faults/status/503", query: [URLQueryItem(name: "key", value: "circuit"), URLQueryItem(name: "times", value: "6")])
            func reached() -> Int { server.stats.snapshot.faultAttempts["circuit"] ?? 0 }
            func outcome() async -> NetworkError? { await networkError { try await client.send(failing) } }
            func isRefused(_ error: NetworkError?) -> Bool {
                if case .circuitOpen? = error { true } else { false }
            }

            for _ in 0..<4 { #expect(await outcome()?.statusCode == 503) }
            #expect(reached() == 4)
            for _ in 0..<10 { #expect(isRefused(await outcome())) }
            #expect(reached() == 4, "open: nothing sent")

            // Half-open: the probe fails, the circuit opens again, and refuses.
            clock.advance(by: .seconds(5))
            #expect(await outcome()?.statusCode == 503)
            #expect(isRefused(await outcome()))
            #expect(reached() == 5)
            clock.advance(by: .seconds(5))
            #expect(await outcome()?.statusCode == 503)
            #expect(reached() == 6)

            // Half-open again: two good probes close it; then every call goes through.
            clock.advance(by: .seconds(5))
            #expect(await outcome() == nil)
            #expect(await outcome() == nil)
            #expect(reached() == 8)
            #expect(breaker.state(forKey: "http://\(server.baseURL.host ?? ""):\(server.baseURL.port ?? 0)") == .closed)
            for _ in 0..<5 { #expect(await outcome() == nil) }
            #expect(reached() == 13)
        }
    }
}
