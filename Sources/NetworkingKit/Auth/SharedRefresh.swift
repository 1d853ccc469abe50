/// One token refresh in flight and the callers waiting for it: the single-flight half of
/// ``TokenRefresher``.
///
/// Waiting on the refresh `Task`'s `value` would tie a waiter to the refresh until it ends, even
/// after the waiter's own task was cancelled (an unstructured task is not cancelled with the
/// caller). Each waiter here parks on a continuation of its own instead, so cancelling one call
/// ends that call at once with ``NetworkError/cancelled`` while the refresh goes on for the
/// others; when it ends, every waiter still there gets the same result.
final class SharedRefresh: Sendable {
    private typealias Waiter = CheckedContinuation<AuthToken, any Error>

    private enum State {
        case running(waiters: [Int: Waiter], nextID: Int)
        case finished(Result<AuthToken, any Error>)
    }

    private let state = LockedState(State.running(waiters: [:], nextID: 0))

    /// Waits for the refresh's result; throws ``NetworkError/cancelled`` as soon as the calling
    /// task is cancelled.
    func value() async throws -> AuthToken {
        let id = state.withLock { state -> Int in
            guard case .running(let waiters, let nextID) = state else { return 0 }
            state = .running(waiters: waiters, nextID: nextID + 1)
            return nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let outcome = state.withLock { state -> Result<AuthToken, any Error>? in
                    switch state {
                    case .finished(let result):
                        return result
                    case .running(var waiters, let nextID):
                        // The handler below may have run before this continuation existed; the
                        // cancelled flag is set before it runs, so checking it here under the
                        // lock closes that gap.
                        if Task.isCancelled { return .failure(NetworkError.cancelled) }
                        waiters[id] = continuation
                        state = .running(waiters: waiters, nextID: nextID)
                        return nil
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard case .running(var waiters, let nextID) = state, let waiter = waiters.removeValue(forKey: id) else {
                    return nil
                }
                state = .running(waiters: waiters, nextID: nextID)
                return waiter
            }
            waiter?.resume(throwing: NetworkError.cancelled)
        }
    }

    /// How many callers are waiting; tests use it to start the refresh's answer only once every
    /// caller has joined.
    var waiterCount: Int {
        state.withLock { state in
            if case .running(let waiters, _) = state { return waiters.count }
            return 0
        }
    }

    /// Ends the refresh with `result` and hands it to every waiter; later callers of ``value()``
    /// get it at once.
    func finish(with result: Result<AuthToken, any Error>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard case .running(let waiters, _) = state else { return [] }
            state = .finished(result)
            return Array(waiters.values)
        }
        for waiter in waiters {
            waiter.resume(with: result)
        }
    }
}
