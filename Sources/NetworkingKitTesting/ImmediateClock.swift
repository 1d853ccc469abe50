@_spi(Transport) import NetworkingKit

/// A clock whose sleeps return at once and are recorded, so a test of backoff sees the exact
/// delays a middleware asked for without waiting for them.
///
/// ```swift
/// let clock = ImmediateClock()
/// let retry = RetryMiddleware(policy: policy, clock: clock, random: { 1 })
/// // ... run a call that fails twice ...
/// #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
/// ```
///
/// Time stands still: ``now`` never moves, so each sleep, even among concurrent ones, is recorded
/// as exactly the duration asked for. A sleep in a cancelled task throws `CancellationError` as a
/// real clock's does.
public final class ImmediateClock: Clock, Sendable {
    /// A point in this clock's time: the total of the sleeps so far.
    public struct Instant: InstantProtocol {
        /// The time since the clock was created.
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct State {
        var sleeps: [Duration] = []
    }

    private let state = LockedState(State())

    /// Creates a clock at its start.
    public init() {}

    /// The current instant, which never moves.
    public var now: Instant {
        Instant()
    }

    /// Zero: sleeps are exact.
    public var minimumResolution: Duration { .zero }

    /// Every sleep asked for, in order.
    public var sleeps: [Duration] {
        state.withLock { $0.sleeps }
    }

    /// Records the sleep, from ``now`` to `deadline`, and returns at once.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { $0.sleeps.append(now.duration(to: deadline)) }
    }
}
