import AsyncHTTPClient
@_spi(Transport) import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// The AsyncHTTPClient delegate that a request without a body goes through.
@Suite("AsyncHTTPClient transport: the delegate of a request without a body", .timeLimit(.minutes(5)))
struct ResponseReceiverTests {
    @Test("a call cancelled before its request starts ends at once, and the request is never sent")
    func cancelledBeforeStart() async throws {
        let receiver = ResponseReceiver()
        let started = LockedState(false)
        let call = Task {
            // Cancelled first: the cancellation handler runs before the request could start.
            withUnsafeCurrentTask { $0?.cancel() }
            return try await receiver.head(deadline: nil, headOnly: false) { receiver in
                started.withLock { $0 = true }
                // Nothing listens on port 1: were it sent, it would end refused, not hang.
                let request = try! HTTPClient.Request(url: "http://127.0.0.1:1/")
                return AsyncHTTPClientTransport.sharedClient.execute(
                    request: request, delegate: receiver, eventLoop: .indifferent, logger: nil)
            }
        }
        await #expect(throws: CancellationError.self) { _ = try await call.value }
        #expect(!started.withLock { $0 })
    }
}
