/// Calls of an operation that are in flight, by key: a caller that asks for a key while a call
/// for it is running waits for that call's result instead of starting another.
///
/// Each caller waits on a continuation kept in a lock-protected table rather than on the call's
/// `Task` itself, because awaiting a `Task` cannot be abandoned: with a continuation, a caller
/// whose task is cancelled is resumed at once and removed, while the call goes on for the others.
/// The lock (not an actor) is what makes that immediate: a cancellation handler runs
/// synchronously, so it can remove and resume its waiter itself instead of queueing an
/// unstructured hop onto an actor that would race with the waiter's own registration.
///
/// The rules, each enforced under the lock:
/// - Each call's waiters are a ``SingleFlightState``: a continuation is stored in one place and
///   whoever removes it resumes it, so nothing is resumed twice and nothing leaks.
/// - When the last waiter leaves, the call leaves the table and its task is cancelled.
/// - A call leaves the table when it ends, so a caller arriving afterwards starts a new one.
///   Calls carry an id so that a cancelled call finishing late cannot end a newer call's waiters.
final class InFlightCalls<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value, any Error>

    private struct Call {
        let id: UInt64
        let task: Task<Void, Never>
        var flight = SingleFlightState<Waiter, Value>()
    }

    private struct State {
        var calls: [Key: Call] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            defer { nextID &+= 1 }
            return nextID
        }
    }

    /// What became of a caller that asked to join.
    private enum Admission {
        case cancelled
        case started
        case shared
    }

    private let state = LockedState(State())
    /// Called each time a caller joins a call already in flight (for a metric).
    private let onShare: @Sendable () -> Void

    init(onShare: @escaping @Sendable () -> Void = {}) {
        self.onShare = onShare
    }

    /// The number of calls in flight.
    var callCount: Int {
        state.withLock { $0.calls.count }
    }

    /// The number of callers waiting, over all calls in flight.
    var waiterCount: Int {
        state.withLock { $0.calls.values.reduce(0) { $0 + $1.flight.waiterCount } }
    }

    /// Returns the result of the call in flight for `key`, starting one with `operation` if there
    /// is none.
    ///
    /// A call started here runs in a task of its own, so that cancelling this caller does not
    /// cancel it for the others.
    /// - Parameters:
    ///   - key: Identifies the call.
    ///   - operation: Makes the call.
    /// - Throws: The call's error, or ``NetworkError/cancelled`` when the calling task is cancelled.
    func value(
        for key: Key,
        operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let waiter = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                join(key, waiter: waiter, continuation: continuation, operation: operation)
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
    }

    /// Adds the waiter to the call for `key`, starting the call if there is none.
    private func join(
        _ key: Key,
        waiter: UInt64,
        continuation: Waiter,
        operation: @escaping @Sendable () async throws -> Value
    ) {
        let admission = state.withLock { state -> Admission in
            // Cancellation sets the task's flag before it runs the handler (`leave`), and both
            // take this lock: either `leave` finds this waiter in the table, or this check sees
            // the flag. A waiter can never be stored after its handler has already run.
            guard !Task.isCancelled else { return .cancelled }
            if state.calls[key] != nil {
                // A call in the table is running: it leaves the table when it finishes.
                _ = state.calls[key]?.flight.join(waiter, continuation, isCancelled: false)
                return .shared
            }
            let id = state.makeID()
            // Unstructured on purpose: the call must outlive the cancellation of the caller that
            // happened to start it, as long as anyone else still waits for it.
            let task = Task { await self.run(operation, key: key, call: id) }
            var call = Call(id: id, task: task)
            _ = call.flight.join(waiter, continuation, isCancelled: false)
            state.calls[key] = call
            return .started
        }
        switch admission {
        case .cancelled: continuation.resume(throwing: NetworkError.cancelled)
        case .shared: onShare()
        case .started: break
        }
    }

    /// Runs the call and hands its result to every waiter still there.
    private func run(_ operation: @Sendable () async throws -> Value, key: Key, call id: UInt64) async {
        let result: Result<Value, any Error>
        do {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        let waiters = state.withLock { state -> [Waiter] in
            // Absent or another id: every waiter left and a newer call may have taken the key.
            guard var call = state.calls[key], call.id == id else { return [] }
            state.calls[key] = nil
            return call.flight.finish(result)
        }
        // Resumed outside the lock: a resumed waiter may run at once and come back for the lock.
        for waiter in waiters {
            waiter.resume(with: result)
        }
    }

    /// Removes a cancelled waiter and resumes it; cancels the call if it was the last waiter.
    private func leave(_ key: Key, waiter: UInt64) {
        let (continuation, abandonedCall) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            // Not found: the call already ended and resumed it, or it never registered (it saw
            // the cancellation flag and resumed itself).
            guard let (continuation, nobodyLeft) = state.calls[key]?.flight.leave(waiter), let continuation else {
                return (nil, nil)
            }
            guard nobodyLeft, let call = state.calls.removeValue(forKey: key) else { return (continuation, nil) }
            return (continuation, call.task)
        }
        continuation?.resume(throwing: NetworkError.cancelled)
        abandonedCall?.cancel()
    }
}
