import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// The call timeout bounds the whole call, whatever it waits for, on the client's clock: a test
/// moves a manual clock instead of waiting.
@Suite("Call timeout", .timeLimit(.minutes(5)))
struct CallTimeoutTests {
    /// A client whose transport never answers (until cancelled), and a stream that says when a
    /// request has reached it.
    private static func silentClient(clock: ManualClock, callTimeout: Duration = .seconds(10)) -> (
        LiveAPIClient, AsyncStream<Void>
    ) {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let transport = StubTransport { _ in
            arrived.yield()
            try await Task.sleep(for: .seconds(3600))
            return .status(.ok)
        }
        var configuration = LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport, callTimeout: callTimeout)
        configuration.clock = clock
        return (LiveAPIClient(configuration: configuration), arrivals)
    }

    @Test("callTimeout ends a call whose transport never answers when the client's clock reaches it, and not before")
    func boundsASilentTransport() async throws {
        let clock = ManualClock()
        let (client, arrivals) = Self.silentClient(clock: clock)
        let ended = LockedState(false)
        let call = Task {
            defer { ended.withLock { $0 = true } }
            try await client.send(Request<Void>(path: "/slow"))
        }
        for await _ in arrivals { break }
        await waitUntil { clock.sleeperCount == 1 }
        // Short of the deadline the watch's sleep goes on, and nothing else can end the call.
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        #expect(!ended.withLock { $0 })
        clock.advance(by: .seconds(1))
        let error = await networkError { try await call.value }
        guard case .timeout(let request)? = error else {
            Issue.record("expected timeout, got \(String(describing: error))")
            return
        }
        #expect(request?.url?.path == "/v1/slow")
    }

    @Test("a timed-out call leaves its caller's task uncancelled, and the client goes on serving calls")
    func callerNotCancelled() async throws {
        let clock = ManualClock()
        let (client, arrivals) = Self.silentClient(clock: clock)
        let finished = Task {
            let error = await networkError { try await client.send(Request<Void>(path: "/slow")) }
            return (error, Task.isCancelled)
        }
        for await _ in arrivals { break }
        clock.advance(by: .seconds(10))
        let (error, cancelled) = await finished.value
        #expect(error == .timeout(nil))
        #expect(!cancelled)
    }

    @Test("a streamed call is bounded until its head has arrived")
    func boundsStreamedHead() async throws {
        let clock = ManualClock()
        let (client, arrivals) = Self.silentClient(clock: clock)
        let call = Task { try await client.bytes(Request<Data>(path: "/feed")) }
        for await _ in arrivals { break }
        clock.advance(by: .seconds(10))
        let error = await networkError { _ = try await call.value }
        guard case .timeout? = error else {
            Issue.record("expected timeout, got \(String(describing: error))")
            return
        }
    }

    @Test("cancelling a call that has a call timeout ends it as cancelled, not as a timeout")
    func cancelledNotTimedOut() async throws {
        let clock = ManualClock()
        let (client, arrivals) = Self.silentClient(clock: clock)
        let call = Task { try await client.send(Request<Void>(path: "/slow")) }
        for await _ in arrivals { break }
        call.cancel()
        let error = await networkError { try await call.value }
        guard case .cancelled? = error else {
            Issue.record("expected cancelled, got \(String(describing: error))")
            return
        }
    }

    @Test("a call that ends before its deadline leaves nothing armed and is not cancelled later")
    func answeredInTime() async throws {
        let clock = ManualClock()
        var configuration = LiveAPIClient.Configuration(
            baseURL: testBaseURL, transport: StubTransport { _ in .json(#"["Up"]"#) }, callTimeout: .seconds(10))
        configuration.clock = clock
        let client = LiveAPIClient(configuration: configuration)
        #expect(try await client.send(Request<[String]>(path: "/films")) == ["Up"])
        clock.advance(by: .seconds(60))
        #expect(try await client.send(Request<[String]>(path: "/films")) == ["Up"])
    }
}
