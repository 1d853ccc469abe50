import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Cancellation", .timeLimit(.minutes(5)))
struct CancellationTests {
    @Test("cancelling the calling task during the transport surfaces as .cancelled")
    func cancelDuringTransport() async throws {
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (client, _) = makeClient { _ in
            enteredContinuation.yield()
            // Waits for cancellation, never for time to pass.
            let (never, keepOpen) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            keepOpen.finish()
            try Task.checkCancellation()
            return .status(.ok)
        }
        let task = Task { try await client.send(Request<Data>(path: "/slow")) }
        var iterator = entered.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        let result = await task.result
        guard case .failure(NetworkError.cancelled) = result else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }

    @Test("a task cancelled before sending sends nothing")
    func cancelledBeforeSend() async throws {
        let (client, transport) = makeClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(Request<Data>(path: "/x"))
        }
        let result = await task.result
        guard case .failure(NetworkError.cancelled) = result else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("cancelling while the body streams stops the read with .cancelled, not a partial value")
    func cancelDuringBody() async throws {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (client, _) = makeClient { _ in StubResponse(body: HTTPBody(stream, length: .unknown, iterationBehavior: .single)) }
        let task = Task { try await client.send(Request<Data>(path: "/x")) }
        continuation.yield(Data("partial".utf8))
        task.cancel()
        let result = await task.result
        continuation.finish()
        guard case .failure(NetworkError.cancelled) = result else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }
}
