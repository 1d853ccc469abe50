/// When a whole call must be over (every attempt, token refresh and wait included), on the clock
/// of the client that made it: ``RequestContext/deadline``.
///
/// A middleware that would wait (a backoff, a refresh) asks what is left first, and stops rather
/// than wait past it:
///
/// ```swift
/// if let deadline = context.deadline, delay >= deadline.remaining {
///     return answer  // no time for another attempt
/// }
/// ```
///
/// The client enforces it by itself: when it passes, the call ends with
/// ``NetworkError/timeout(_:)`` whatever it was waiting for.
public struct CallDeadline: Sendable {
    /// The time on the deadline's clock, counted from an origin of its own.
    let elapsed: @Sendable () -> Duration
    /// When the deadline falls, counted from the same origin.
    let at: Duration

    init(at: Duration, elapsed: @escaping @Sendable () -> Duration) {
        self.at = at
        self.elapsed = elapsed
    }

    /// A deadline `duration` from now on `clock`.
    /// - Parameters:
    ///   - duration: How long from now.
    ///   - clock: The clock it is kept on; the continuous clock unless a test injects its own.
    public init<C: Clock<Duration>>(after duration: Duration, on clock: C = ContinuousClock()) {
        let origin = clock.now
        self.init(at: duration, elapsed: { origin.duration(to: clock.now) })
    }

    /// What is left until the deadline; zero or less once it has passed.
    public var remaining: Duration { at - elapsed() }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { remaining <= .zero }
}
