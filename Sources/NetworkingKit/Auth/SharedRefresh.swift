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

    private struct State {
        var flight = SingleFlightState<Waiter, AuthToken>()
        var nextID: UInt64 = 0
    }

    private let state = LockedState(State())

    /// Waits for the refresh's result; throws ``NetworkError/cancelled`` as soon as the calling
    /// task is cancelled.
    func value() async throws -> AuthToken {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                // The handler below may have run before this continuation existed; the cancelled
                // flag is set before it runs, so reading it here under the lock closes that gap.
                let action = state.withLock { $0.flight.join(id, continuation, isCancelled: Task.isCancelled) }
                if case .resume(let result) = action { continuation.resume(with: result) }
            }
        } onCancel: {
            // The refresh goes on for the others, whoever leaves.
            state.withLock { $0.flight.leave(id) }.waiter?.resume(throwing: NetworkError.cancelled)
        }
    }

    /// How many callers are waiting; tests use it to start the refresh's answer only once every
    /// caller has joined.
    var waiterCount: Int {
        state.withLock { $0.flight.waiterCount }
    }

    /// Ends the refresh with `result` and hands it to every waiter; later callers of ``value()``
    /// get it at once.
    func finish(with result: Result<AuthToken, any Error>) {
        for waiter in state.withLock({ $0.flight.finish(result) }) {
            waiter.resume(with: result)
        }
    }
}
