import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Retries against a real server, counted by DemoAPI's stats: what really reached it.
@Suite("Retry against DemoAPI", .timeLimit(.minutes(3)))
struct RetryIntegrationTests {
    struct Recovery: Decodable, Sendable {
        let key: String
        let attempts: Int
    }

    /// A client retrying by `policy` on an immediate clock (the waits are recorded, not waited).
    static func client(_ server: DemoServer, _ kind: TransportKind, budget: RetryBudget? = RetryBudget()) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: kind.transport,
                middlewares: [RetryMiddleware(policy: .default, budget: budget, clock: ImmediateClock())]))
    }

    static func faultQuery(key: String, times: Int?) -> [URLQueryItem] {
        [URLQueryItem(name: "key", value: key)] + (times.map { [URLQueryItem(name: "times", value: "\($0)")] } ?? [])
    }

    @Test("a route failing twice with 503 then succeeding: one call, three attempts, success", arguments: TransportKind.allCases)
    func recovers(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let recovery: Recovery = try await Self.client(server, kind).send(
                Request(path: "/faults/status/503", query: Self.faultQuery(key: "flaky", times: 2)))
            #expect(recovery.attempts == 3)
            #expect(server.stats.snapshot.faultAttempts["flaky"] == 3)
        }
    }

    @Test("100 concurrent calls to an always-503 route: at most 120 attempts reach the server", arguments: TransportKind.allCases)
    func budgetBoundsLoad(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let failures = await withTaskGroup(of: Int?.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        await networkError {
                            try await client.send(
                                Request<Void>(path: "/faults/status/503", query: Self.faultQuery(key: "down", times: nil)))
                        }?.statusCode
                    }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(failures.count == 100)
            #expect(failures.allSatisfy { $0 == 503 })
            let attempts = server.stats.snapshot.faultAttempts["down"] ?? 0
            #expect(attempts >= 100 && attempts <= 120, "\(attempts) attempts")
        }
    }

    @Test("POST is not retried without an Idempotency-Key, and is with one", arguments: TransportKind.allCases)
    func post(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let plain = await networkError {
                try await client.send(
                    Request<Void>(
                        path: "/faults/status/503", method: .post, query: Self.faultQuery(key: "plain", times: 1),
                        body: .json(["order": 1])))
            }
            #expect(plain?.statusCode == 503)
            #expect(server.stats.snapshot.faultAttempts["plain"] == 1)

            let recovery: Recovery = try await client.send(
                Request(
                    path: "/faults/status/503", method: .post, query: Self.faultQuery(key: "keyed", times: 1),
                    headers: ["Idempotency-Key": "order-1"], body: .json(["order": 1])))
            #expect(recovery.attempts == 2)
        }
    }

    @Test("a refused connection is retried, then reported", arguments: TransportKind.allCases)
    func refused(kind: TransportKind) async throws {
        let clock = ImmediateClock()
        let error = try await withRefusingPort { port in
            let client = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: kind.transport,
                    middlewares: [RetryMiddleware(policy: RetryPolicy(jitter: .none), clock: clock)]))
            return await networkError { try await client.send(Request<Void>(path: "/films")) }
        }
        #expect(error?.transportKind == .connectionRefused)
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
    }
}
