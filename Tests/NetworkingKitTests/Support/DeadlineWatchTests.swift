import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// One task watches every call's deadline: arming and disarming cost a table entry, and an earlier
/// deadline than the one being slept for is never missed. Each test waits for actions to run
/// (events), never for an amount of time.
@Suite("DeadlineWatch", .timeLimit(.minutes(5)))
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

    @Test("a watch on an injected clock runs a deadline when that clock reaches it, not before")
    func injectedClock() async throws {
        let clock = ManualClock()
        let watch = DeadlineWatch(clock: clock)
        let (events, continuation) = AsyncStream.makeStream(of: String.self)
        _ = watch.arm(atElapsed: .seconds(10), Self.reporter("ten", to: continuation))
        _ = watch.arm(atElapsed: .seconds(20), Self.reporter("twenty", to: continuation))
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(9))
        #expect(watch.armedCount == 2)
        clock.advance(by: .seconds(1))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "ten")
        #expect(watch.armedCount == 1)
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(10))
        #expect(await iterator.next() == "twenty")
        #expect(watch.armedCount == 0)
    }
}
