#if DemoAPI
/// Hands the bound port (or the reason there is none) from the task running the server to the
/// caller of ``DemoServer/start(_:)``, whichever of the two gets there first.
final class StartupSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int, any Error>?)
        case resolved(Result<Int, any Error>)
    }

    private let state = Locked(State.waiting(nil))

    /// Records the outcome; only the first call counts (a server that fails after listening must not
    /// overwrite the port it already reported).
    func resolve(_ result: Result<Int, any Error>) {
        let waiter: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .resolved(result)
            return continuation
        }
        waiter?.resume(with: result)
    }

    /// The port, once the server listens; throws if it could not start.
    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .resolved(let result):
                    return result
                }
            }
            if let ready {
                continuation.resume(with: ready)
            }
        }
    }
}
#endif
