import Foundation
import NIOCore
@_spi(Transport) import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// A server may close an idle keep-alive connection just as the client picks it from its pool:
/// the write then fails with "I/O on closed channel" before a byte reached the server.
@Suite("AsyncHTTPClient transport: a pooled connection the server had closed")
struct ClosedPooledConnectionTests {
    final class Attempts: Sendable {
        private let count = LockedState(0)
        var value: Int { count.withLock { $0 } }
        func next() -> Int {
            count.withLock {
                $0 += 1; return $0
            }
        }
    }

    @Test("the request is sent once more, on a fresh connection, whatever its method")
    func resendsOnce() async throws {
        let attempts = Attempts()
        let answer = try await AsyncHTTPClientTransport.resendingOnClosedConnection(body: HTTPBody(Data("{}".utf8))) {
            if attempts.next() == 1 { throw ChannelError.ioOnClosedChannel }
            return "answered"
        }
        #expect(answer == "answered")
        #expect(attempts.value == 2)
    }

    @Test("only once, only for a closed channel, and never with a one-shot body that may have been read")
    func limits() async throws {
        let twice = Attempts()
        await #expect(throws: ChannelError.ioOnClosedChannel) {
            try await AsyncHTTPClientTransport.resendingOnClosedConnection(body: nil) {
                _ = twice.next()
                throw ChannelError.ioOnClosedChannel
            }
        }
        #expect(twice.value == 2)

        let reset = Attempts()
        await #expect(throws: ChannelError.self) {
            try await AsyncHTTPClientTransport.resendingOnClosedConnection(body: nil) {
                _ = reset.next()
                throw ChannelError.eof
            }
        }
        #expect(reset.value == 1)

        let oneShot = Attempts()
        let stream = HTTPBody(AsyncStream<Data> { $0.finish() }, length: .unknown, iterationBehavior: .single)
        await #expect(throws: ChannelError.ioOnClosedChannel) {
            try await AsyncHTTPClientTransport.resendingOnClosedConnection(body: stream) {
                _ = oneShot.next()
                throw ChannelError.ioOnClosedChannel
            }
        }
        #expect(oneShot.value == 1)
    }

    @Test("when the fresh connection fails too, the caller gets connectionLost")
    func mapsToConnectionLost() {
        let error = AsyncHTTPClientErrorMapping.networkError(
            for: ChannelError.ioOnClosedChannel, phase: .head, request: RequestSummary(method: .get, url: nil))
        #expect(error == .transport(TransportFailure(kind: .connectionLost)))
    }
}
