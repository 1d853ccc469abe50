import Foundation
import Testing

@testable import NetworkingKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// FoundationNetworking keeps delivering a body however fast libcurl inflates it (a gzip bomb) and
/// cannot pause a transfer: the delegate itself must stop keeping bytes at the size limit, or the
/// process grows with the bomb's inflated size whatever the limit.
@Suite("URLSession transport: memory past the size limit", .timeLimit(.minutes(5)))
struct URLSessionDelegateLimitTests {
    @Test("past the limit the call fails with responseTooLarge and nothing more is kept, however much arrives")
    func stopsKeepingBytes() async throws {
        let delegate = URLSessionTransportDelegate()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        // Never resumed: the delegate's callbacks are driven by hand, as FoundationNetworking would.
        let task = session.dataTask(with: URL(string: "http://127.0.0.1:9/bomb")!)
        let body = BodyPipe(overflow: URLSessionTransport.answerOverflow)
        delegate.register(
            task,
            state: URLSessionTransportDelegate.TaskState(
                request: RequestSummary(method: .get, url: nil), isHead: false, limit: 1000, headOnlyDeadline: false,
                sendObserver: nil, spooledFile: nil, responseContinuation: nil, bodyChunks: nil, body: body))
        // 60 MB delivered in 600-byte pieces, far past the 1,000-byte limit.
        for _ in 0..<100_000 {
            delegate.urlSession(session, dataTask: task, didReceive: Data(count: 600))
        }
        // The end of the transfer; a no-op once the limit has ended the body.
        body.finish(.success(()))
        var kept = 0
        do {
            for try await chunk in BodyReader(body, producer: URLSessionTransport.TaskCanceller(delegate: delegate, task: task)).chunks {
                kept += chunk.count
            }
            Issue.record("the body ended without an error")
        } catch let error as NetworkError {
            #expect(error == .responseTooLarge(limit: 1000, request: nil))
        }
        // The first piece fit; the second crossed the limit and ended the call; the rest were dropped.
        #expect(kept == 600)
    }
}
