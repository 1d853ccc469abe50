import Foundation
import NetworkingKit
import Testing

/// One task watches every call's deadline: arming and disarming cost a table entry, and an earlier
/// deadline than the one being slept for is never missed. Each test waits for actions to run
/// (events), never for an amount of time.
@Suite("DeadlineWatch", .timeLimit(.minutes(1)))
struct DeadlineWatchTests {
    /// An action that reports its name when it runs.
    private static func reporter(_ name: String, to continuation: AsyncStream<String>.Continuation) -> @Sendable () -> Void {
        { continuation.yield(name) }
    }

    @Test("deadlines run once each, in order; a disarmed one never runs and leaves nothing armed")
    func runsInOrderAndDisarms() async throws {
        let watch = DeadlineWatch()
        let (events, continuation) = AsyncStream.makeStream(of: String.self)
        let now = ContinuousClock.now
        _ = watch.arm(at: now + .milliseconds(20), Self.reporter("first", to: continuation))
        let cancelled = watch.arm(at: now + .milliseconds(30), Self.reporter("disarmed", to: continuation))
        _ = watch.arm(at: now + .milliseconds(40), Self.reporter("last", to: continuation))
        watch.disarm(cancelled)
        var seen: [String] = []
        for await event in events {
            seen.append(event)
            if event == "last" { break }
        }
        #expect(seen == ["first", "last"])
        #expect(watch.armedCount == 0)
    }

    @Test("a deadline earlier than the one being slept for runs at its own time")
    func earlierDeadlineWakesTheWatch() async throws {
        let watch = DeadlineWatch()
        let (events, continuation) = AsyncStream.makeStream(of: String.self)
        let far = watch.arm(at: .now + .seconds(3600), Self.reporter("far", to: continuation))
        _ = watch.arm(at: .now + .milliseconds(10), Self.reporter("near", to: continuation))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "near")
        #expect(watch.armedCount == 1)
        watch.disarm(far)
        #expect(watch.armedCount == 0)
    }
}
