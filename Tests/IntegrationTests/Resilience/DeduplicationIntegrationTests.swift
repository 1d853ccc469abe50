import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// De-duplication against a real server, counted by DemoAPI's stats: what really reached it.
/// `/faults/delay/1000` holds each call open long enough for all the callers to join it.
@Suite("Deduplication against DemoAPI", .timeLimit(.minutes(3)))
struct DeduplicationIntegrationTests {
    static let route = "GET /faults/delay/{ms}"

    /// A client whose only middleware is a deduplicator of its own.
    static func client(_ server: DemoServer, _ kind: TransportKind) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: kind.transport, middlewares: [RequestDeduplicator()]))
    }

    /// Sends `requests` all at once and returns their answers in order.
    static func sendConcurrently(_ requests: [Request<Data>], with client: LiveAPIClient) async throws -> [Data] {
        try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { (index, try await client.send(request)) }
            }
            var answers = [Data?](repeating: nil, count: requests.count)
            for try await (index, data) in group { answers[index] = data }
            return answers.compactMap { $0 }
        }
    }

    @Test("10 identical concurrent GETs reach the server once and all get the answer", arguments: TransportKind.allCases)
    func identicalGETsReachTheServerOnce(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let request = Request<Data>(path: "/faults/delay/1000")
            let answers = try await Self.sendConcurrently(Array(repeating: request, count: 10), with: Self.client(server, kind))
            #expect(server.stats.count(Self.route) == 1)
            #expect(answers.count == 10)
            #expect(Set(answers).count == 1)
            let decoded = try answers.map { try JSONDecoder().decode([String: Int].self, from: $0) }
            #expect(decoded.allSatisfy { $0 == ["delayed_ms": 1000] })
        }
    }

    @Test("concurrent GETs with two different credentials make one call per credential", arguments: TransportKind.allCases)
    func differentCredentialsAreNotMerged(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let requests = ["alpha", "beta"].flatMap { token in
                Array(
                    repeating: Request<Data>(path: "/faults/delay/1000", headers: ["Authorization": "Bearer \(token)"]),
                    count: 5)
            }
            let answers = try await Self.sendConcurrently(requests, with: Self.client(server, kind))
            #expect(server.stats.count(Self.route) == 2)
            #expect(answers.count == 10)
        }
    }
}
