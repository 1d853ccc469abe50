/// Calls of an operation that are in flight, by key: a caller that asks for a key while a call
/// for it is running waits for that call's result instead of starting another.
///
/// The caller that finds no call for its key leads one: it runs the operation itself, in its own
/// task, so a call nobody shares costs no task and no thread hop. Callers that join wait on a
/// continuation kept in a lock-protected table rather than on a `Task`, because awaiting a `Task`
/// cannot be abandoned: with a continuation, a joined caller whose task is cancelled is resumed at
/// once and removed, while the call goes on for the others. The lock (not an actor) is what makes
/// that immediate: a cancellation handler runs synchronously, so it can remove and resume its
/// waiter itself instead of queueing an unstructured hop onto an actor that would race with the
/// waiter's own registration.
///
/// The rules, each enforced under the lock:
/// - Each call's joined callers are a ``SingleFlightState``: a continuation is stored in one place
///   and whoever removes it resumes it, so nothing is resumed twice and nothing leaks.
/// - A call leaves the table when it ends, so a caller arriving afterwards starts a new one. When
///   nobody has joined by the time the operation returns, it ends right there and its leader takes
///   the value as it is; otherwise `share` first turns it into one that every caller can take.
/// - A leader whose task is cancelled takes its operation down with it. The callers that joined do
///   not inherit a cancellation that was not theirs: they start over, and one of them leads a new
///   call that the others join.
/// - Calls carry an id, so that a leader finishing late can never end a newer call for its key.
final class InFlightCalls<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value, any Error>

    private struct Call {
        let id: UInt64
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

    /// What a joined caller is told when the call it joined ended without a result for it: its
    /// leader was cancelled, or the call ended before the caller could be stored.
    private struct StartOver: Error {}

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

    /// The number of callers of the calls in flight: each call's leader and those who joined it.
    var callerCount: Int {
        state.withLock { $0.calls.values.reduce(0) { $0 + 1 + $1.flight.waiterCount } }
    }

    /// Returns the result of the call in flight for `key`, or runs `operation` as that call when
    /// there is none.
    ///
    /// - Parameters:
    ///   - key: Identifies the call.
    ///   - operation: Makes the call, in the calling task.
    ///   - share: Turns the operation's value into one every caller can take (reads a body into
    ///     memory, say); run only when someone joined the call.
    /// - Throws: The call's error, or ``NetworkError/cancelled`` when the calling task is cancelled.
    func value(
        for key: Key,
        operation: () async throws -> Value,
        share: (Value) async throws -> Value = { $0 }
    ) async throws -> Value {
        // Each turn past the first follows a call that ended without an answer for this caller
        // (its leader was cancelled), so the loop ends with the first call that is not cancelled.
        while true {
            if Task.isCancelled { throw NetworkError.cancelled }
            let id = state.withLock { state -> UInt64? in
                guard state.calls[key] == nil else { return nil }
                let id = state.makeID()
                state.calls[key] = Call(id: id)
                return id
            }
            if let id { return try await lead(key, call: id, operation: operation, share: share) }
            do {
                return try await join(key)
            } catch is StartOver {
                continue
            }
        }
    }

    /// Runs the call for `key` in the calling task and hands its result to whoever joined.
    private func lead(
        _ key: Key, call id: UInt64, operation: () async throws -> Value, share: (Value) async throws -> Value
    ) async throws -> Value {
        let result: Result<Value, any Error>
        do {
            let value = try await operation()
            let joined = state.withLock { state -> Bool in
                // One lookup: a key's hash is cheap, but comparing two equal keys is not.
                guard let index = state.calls.index(forKey: key), state.calls.values[index].id == id,
                    state.calls.values[index].flight.waiterCount == 0
                else { return true }
                state.calls.remove(at: index)
                return false
            }
            // Nobody to share with: the value needs no copy, and the call is over.
            guard joined else { return value }
            result = .success(try await share(value))
        } catch {
            result = .failure(error)
        }
        let failed = if case .failure = result { true } else { false }
        let leaderCancelled = failed && Task.isCancelled
        let handed: Result<Value, any Error> = leaderCancelled ? .failure(StartOver()) : result
        let waiters = state.withLock { state -> [Waiter] in
            guard var call = state.calls[key], call.id == id else { return [] }
            state.calls[key] = nil
            return call.flight.finish(handed)
        }
        // Resumed outside the lock: a resumed waiter may run at once and come back for the lock.
        for waiter in waiters {
            waiter.resume(with: handed)
        }
        if leaderCancelled { throw NetworkError.cancelled }
        return try result.get()
    }

    /// Waits for the call in flight for `key`; ``StartOver`` when there is none any more, or when
    /// it ended because its leader was cancelled.
    private func join(_ key: Key) async throws -> Value {
        let id = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                // Cancellation sets the task's flag before it runs the handler (`leave`), and both
                // take this lock: either the handler finds this waiter in the table, or `join`
                // sees the flag. A waiter can never be stored after its handler has already run.
                let action = state.withLock { $0.calls[key]?.flight.join(id, continuation, isCancelled: Task.isCancelled) }
                switch action {
                case nil: continuation.resume(throwing: StartOver())
                case .resume(let result): continuation.resume(with: result)
                case .wait: onShare()
                }
            }
        } onCancel: {
            // Not found: the call already ended and resumed it, or it never registered (it saw
            // the cancellation flag and resumed itself). The call goes on for its leader.
            state.withLock { $0.calls[key]?.flight.leave(id) }?.waiter?.resume(throwing: NetworkError.cancelled)
        }
    }
}
