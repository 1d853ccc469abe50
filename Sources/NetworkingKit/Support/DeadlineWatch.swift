/// The deadlines of every call in flight, watched by one sleeping task for the whole process.
///
/// A timer per request is what the transports had: an event-loop timer (two cross-thread wakeups
/// of the loop, to arm it and to cancel it) or a task sleeping until the deadline (whose sleep,
/// once cancelled, stays scheduled until then, so the process grew with the request rate).
/// Here arming and disarming a deadline is a table insertion and removal under a lock; one task
/// sleeps until the earliest deadline in the table, and only a deadline earlier than that one
/// (a shorter timeout than the calls in flight) replaces its sleep.
package final class DeadlineWatch: Sendable {
    /// The one watch of the process.
    package static let shared = DeadlineWatch()

    /// A deadline being watched; hand it back to ``disarm(_:)`` when the call ends first.
    package struct Ticket: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
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
        var wakesAt: ContinuousClock.Instant
        let task: Task<Void, Never>
    }

    /// A new entry's ID, and the sleeper it replaced.
    private struct Armed {
        let id: UInt64
        let replaced: Task<Void, Never>?
    }

    private let state = LockedState(State())

    package init() {}

    /// Runs `action` at `deadline`, unless ``disarm(_:)`` comes first.
    package func arm(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Ticket {
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
    package func disarm(_ ticket: Ticket) {
        state.withLock { _ = $0.entries.removeValue(forKey: ticket.id) }
    }

    /// How many deadlines are armed (for tests).
    package var armedCount: Int {
        state.withLock { $0.entries.count }
    }

    /// Sleeps until `wake`, runs what is due, and goes on until nothing is armed; a sleeper
    /// replaced by an earlier one stops at its next turn.
    private func sleep(until wake: ContinuousClock.Instant, generation: UInt64) async {
        var wake = wake
        // Each turn runs the deadlines that are due and sleeps until the next one; the loop ends
        // when nothing is armed or another sleeper has taken over.
        while true {
            try? await Task.sleep(until: wake, clock: .continuous)
            let now = ContinuousClock.now
            let (due, next) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
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
