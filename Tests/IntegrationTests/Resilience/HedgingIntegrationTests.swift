import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Hedged calls against a real server, counted by DemoAPI: a stalled first copy loses to its
/// hedge, over every transport.
@Suite("Hedging against DemoAPI", .timeLimit(.minutes(3)))
struct HedgingIntegrationTests {
    struct Stall: Decodable, Sendable {
        let attempts: Int
    }

    @Test("the first copy stalls; the hedge, sent when the clock passes the delay, answers and wins", arguments: TransportKind.allCases)
    func hedgeWins(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let clock = ManualClock()
            let client = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: server.baseURL, transport: kind.transport, middlewares: [HedgingMiddleware(clock: clock)]))
            var options = RequestOptions()
            options.hedging = HedgingPolicy(delay: .fixed(.milliseconds(50)))
            // The first of every 2 requests stalls for a minute (longer than any loaded machine
            // takes to send the hedge); the second answers at once.
            let request = Request<Stall>(
                path: "/faults/stall",
                query: [
                    URLQueryItem(name: "every", value: "2"), URLQueryItem(name: "ms", value: "60000"),
                    URLQueryItem(name: "key", value: "hedge"),
                ], options: options)
            let call = Task { try await client.send(request) }
            // Once the server holds the first copy, the delay passes.
            for _ in 0..<12_000 where server.stats.snapshot.faultAttempts["hedge"] != 1 || clock.sleeperCount != 1 {
                try await Task.sleep(for: .milliseconds(5))
            }
            clock.advance(by: .milliseconds(50))
            #expect(try await call.value.attempts == 2)
            #expect(server.stats.snapshot.faultAttempts["hedge"] == 2)
        }
    }
}
