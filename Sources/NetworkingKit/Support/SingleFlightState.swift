/// The callers waiting for one shared result, as a plain value: who waits, and the result once it
/// came. The one single-flight state under ``InFlightCalls`` (de-duplicated requests) and
/// ``SharedRefresh`` (a token refresh), free of tasks and locks so that tests drive every
/// transition directly (the owner keeps it under a lock and resumes what it hands back outside).
///
/// The rule that keeps a waiter from leaking or being resumed twice: a waiter is stored in one
/// place, and whoever removes it resumes it: ``finish(_:)`` (every waiter, with the result) or
/// ``leave(_:)`` (that waiter, cancelled). A waiter whose task was cancelled before it could be
/// stored is never stored (``join(_:_:isCancelled:)``): its cancellation handler may already have
/// run and found nothing to remove.
package struct SingleFlightState<Waiter, Value> {
    package enum Phase {
        /// The shared work runs; these callers wait for it, by id.
        case running(waiters: [UInt64: Waiter])
        /// The shared work ended with this result.
        case finished(Result<Value, any Error>)
    }

    /// What a caller that joins does.
    package enum JoinAction {
        /// Wait: it was stored, and ``finish(_:)`` or ``leave(_:)`` will hand it back.
        case wait
        /// Take this result now (the work had ended, or the caller is already cancelled).
        case resume(Result<Value, any Error>)
    }

    package private(set) var phase = Phase.running(waiters: [:])

    package init() {}

    /// How many callers wait.
    package var waiterCount: Int {
        if case .running(let waiters) = phase { return waiters.count }
        return 0
    }

    /// Caller `id` arrives with `waiter`; `isCancelled` is its task's flag, read under the same lock
    /// as its cancellation handler's ``leave(_:)``.
    package mutating func join(_ id: UInt64, _ waiter: Waiter, isCancelled: Bool) -> JoinAction {
        switch phase {
        case .finished(let result):
            return .resume(result)
        case .running(var waiters):
            if isCancelled { return .resume(.failure(NetworkError.cancelled)) }
            waiters[id] = waiter
            phase = .running(waiters: waiters)
            return .wait
        }
    }

    /// Caller `id` was cancelled: its waiter, to resume with ``NetworkError/cancelled`` (`nil` when
    /// it was already handed back or never stored), and whether nobody waits any more.
    package mutating func leave(_ id: UInt64) -> (waiter: Waiter?, nobodyLeft: Bool) {
        guard case .running(var waiters) = phase, let waiter = waiters.removeValue(forKey: id) else {
            return (nil, false)
        }
        phase = .running(waiters: waiters)
        return (waiter, waiters.isEmpty)
    }

    /// The shared work ended: every waiter, to resume with `result`. Later callers get it at once.
    package mutating func finish(_ result: Result<Value, any Error>) -> [Waiter] {
        guard case .running(let waiters) = phase else { return [] }
        phase = .finished(result)
        return Array(waiters.values)
    }
}

extension SingleFlightState: Sendable where Waiter: Sendable, Value: Sendable {}

extension SingleFlightState.Phase: Sendable where Waiter: Sendable, Value: Sendable {}
