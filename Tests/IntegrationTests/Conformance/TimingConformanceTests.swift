import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

/// Every transport's answers say where their time went: the start, the first byte and the last
/// for all; the connection and its phases where the transport reports them (`NIOTransport`).
@Suite("Conformance: request timing", .timeLimit(.minutes(3)))
struct TimingConformanceTests {
    @Test("two calls in a row: each timing has its start, first and last byte in order, within the call", arguments: TransportKind.allCases)
    func timing(kind: TransportKind) async throws {
        // A NIO transport of its own, so that its first call opens a connection.
        let nio = kind == .nio ? NIOTransport(configuration: NIOTransport.Configuration()) : nil
        do {
            try await Self.calls(kind: kind, transport: nio ?? kind.transport)
        } catch {
            await nio?.shutdown()
            throw error
        }
        await nio?.shutdown()
    }

    private static func calls(kind: TransportKind, transport: any HTTPTransport) async throws {
        try await withDemoServer { server in
            let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
            var timings: [RequestTiming] = []
            for _ in 0..<2 {
                let before = Date()
                let response = try await client.response(Request<Data>(path: "/films"))
                let timing = try #require(response.timing, "no timing over \(kind)")
                #expect(timing.start >= before.addingTimeInterval(-0.001))
                let firstByte = try #require(timing.firstByte)
                let lastByte = try #require(timing.lastByte)
                #expect(.zero <= firstByte && firstByte <= lastByte && lastByte <= response.duration)
                timings.append(timing)
            }
            switch kind {
            case .nio:
                #expect(timings.map(\.reusedConnection) == [false, true])
                #expect(timings[0].connect != nil && timings[1].connect == nil)
                #expect(timings[0].tlsHandshake == nil)  // http
                #expect(timings.allSatisfy { $0.requestSent != nil && $0.requestSent! <= $0.firstByte! })
            case .asyncHTTPClient, .urlSession:
                #expect(timings.allSatisfy { $0.reusedConnection == nil && $0.connect == nil && $0.dns == nil })
            }
        }
    }
}
