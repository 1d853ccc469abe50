/// The deadlines of every call in flight, watched by one sleeping task for the whole process.
///
/// A timer per request is what the transports had: an event-loop timer (two cross-thread wakeups
/// of the loop, to arm it and to cancel it) or a task sleeping until the deadline (whose sleep,
/// once cancelled, stays scheduled until then, so the process grew with the request rate).
/// Here arming and disarming a deadline is a table insertion and removal under a lock; one task
/// sleeps until the earliest deadline in the table, and only a deadline earlier than that one
/// (a shorter timeout than the calls in flight) replaces its sleep.
///
/// A watch keeps time on one clock: the process's watch on `ContinuousClock`, for the transports'
/// timeouts; a client given another clock (a test's manual clock) has a watch of its own on it
/// for its call timeouts. Deadlines are kept as durations since the watch was made.
///
/// Public as SPI (`@_spi(Transport) import NetworkingKit`): a transport of another package bounds
/// its exchanges with the same watch as the built-in ones (no stability is promised for it).
@_spi(Transport) public final class DeadlineWatch: Sendable {
    /// The one watch of the process, on `ContinuousClock`.
    public static let shared = DeadlineWatch()

    /// A deadline being watched; hand it back to ``disarm(_:)`` when the call ends first.
    public struct Ticket: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// The sleeping task; `nil` when none sleeps.
        var sleeper: Sleeper?
        var generations: UInt64 = 0
    }

    /// A struct, not a tuple: the lock's result type is generic, and a tuple's metadata is
    /// looked up at run time on every arm.
    private struct Sleeper {
        let generation: UInt64
        var wakesAt: Duration
        let task: Task<Void, Never>
    }

    /// A new entry's ID, and the sleeper it replaced.
    private struct Armed {
        let id: UInt64
        let replaced: Task<Void, Never>?
    }

    private let state = LockedState(State())
    /// Where the continuous clock's instants are measured from, for ``arm(at:_:)``.
    private let continuousOrigin: ContinuousClock.Instant
    /// The time on the watch's clock since the watch was made.
    private let elapsed: @Sendable () -> Duration
    /// Sleeps on the watch's clock until the given time since the watch was made.
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Creates a watch on the continuous clock.
    package convenience init() {
        self.init(clock: ContinuousClock())
    }

    /// Creates a watch that keeps time on `clock`.
    package init<C: Clock<Duration>>(clock: C) {
        let origin = clock.now
        self.continuousOrigin = .now
        self.elapsed = { origin.duration(to: clock.now) }
        self.sleepUntil = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// The time on the watch's clock since the watch was made: what ``arm(atElapsed:_:)`` counts in.
    package var now: Duration { elapsed() }

    /// A call's deadline `duration` from now, on the watch's clock.
    func deadline(after duration: Duration) -> CallDeadline {
        CallDeadline(at: elapsed() + duration, elapsed: elapsed)
    }

    /// Runs `action` at `deadline`, unless ``disarm(_:)`` comes first; for a watch on the
    /// continuous clock.
    public func arm(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Ticket {
        arm(atElapsed: continuousOrigin.duration(to: deadline), action)
    }

    /// Runs `action` once the watch's clock has run `deadline` since the watch was made (see
    /// ``now``), unless ``disarm(_:)`` comes first.
    package func arm(atElapsed deadline: Duration, _ action: @escaping @Sendable () -> Void) -> Ticket {
        let armed = state.withLock { state -> Armed in
            let id = state.nextID
            state.nextID &+= 1
            state.entries[id] = Entry(deadline: deadline, action: action)
            if let sleeper = state.sleeper, sleeper.wakesAt <= deadline { return Armed(id: id, replaced: nil) }
            state.generations &+= 1
            let generation = state.generations
            let previous = state.sleeper?.task
            // Detached: the watch serves every call, so it takes no caller's priority or task locals.
            let task = Task.detached(priority: .high) { await self.sleep(until: deadline, generation: generation) }
            state.sleeper = Sleeper(generation: generation, wakesAt: deadline, task: task)
            return Armed(id: id, replaced: previous)
        }
        armed.replaced?.cancel()
        return Ticket(id: armed.id)
    }

    /// Forgets a deadline whose call has ended; its action will not run.
    public func disarm(_ ticket: Ticket) {
        state.withLock { _ = $0.entries.removeValue(forKey: ticket.id) }
    }

    /// How many deadlines are armed (for tests).
    package var armedCount: Int {
        state.withLock { $0.entries.count }
    }

    /// Sleeps until `wake`, runs what is due, and goes on until nothing is armed; a sleeper
    /// replaced by an earlier one stops at its next turn.
    private func sleep(until wake: Duration, generation: UInt64) async {
        var wake = wake
        // Each turn runs the deadlines that are due and sleeps until the next one; the loop ends
        // when nothing is armed or another sleeper has taken over.
        while true {
            try? await sleepUntil(wake)
            let now = elapsed()
            let (due, next) = state.withLock { state -> ([@Sendable () -> Void], Duration?) in
                guard state.sleeper?.generation == generation else { return ([], nil) }
                let expired = state.entries.filter { $0.value.deadline <= now }
                for id in expired.keys { state.entries.removeValue(forKey: id) }
                let next = state.entries.values.map(\.deadline).min()
                if let next {
                    state.sleeper?.wakesAt = next
                } else {
                    state.sleeper = nil
                }
                // In deadline order, also when a late wake finds several due at once.
                return (expired.values.sorted { $0.deadline < $1.deadline }.map(\.action), next)
            }
            for action in due { action() }
            guard let next else { return }
            wake = next
        }
    }
}
