@_spi(Transport) import NetworkingKit

/// A clock that moves only when a test moves it: a sleep returns once ``advance(by:)`` has brought
/// the time to its deadline, so a test of a timeout decides when it passes, without waiting.
///
/// ```swift
/// let clock = ManualClock()
/// var configuration = LiveAPIClient.Configuration(baseURL: url, transport: transport, callTimeout: .seconds(10))
/// configuration.clock = clock
/// // ... start a call the transport never answers, then:
/// clock.advance(by: .seconds(10))  // the call ends with NetworkError.timeout
/// ```
///
/// A sleep in a cancelled task throws `CancellationError` as a real clock's does.
public final class ManualClock: Clock, Sendable {
    /// A point in this clock's time: how far it has been moved since it was made.
    public typealias Instant = ImmediateClock.Instant

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant()
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state = LockedState(State())

    /// Creates a clock at its start.
    public init() {}

    /// The current instant: the start, moved by every ``advance(by:)`` so far.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Zero: sleeps end exactly when the clock reaches them.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to move.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Moves the clock forward by `duration` and ends every sleep whose deadline it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let ids = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        // Resumed outside the lock: a sleeper may come straight back to sleep again.
        for continuation in due { continuation.resume() }
    }

    /// Returns once the clock has been moved to `deadline` (at once when it is there already).
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The cancellation flag is read under the lock its handler takes too: either the
                // handler finds this sleeper, or the sleeper sees the flag and never waits.
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
