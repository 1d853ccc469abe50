#if AsyncHTTPClientTransport || DemoAPI
@_spi(Transport) import NetworkingKit

/// The app's writes on one connection (messages and pings) against its close frame: the close
/// waits for the writes begun before it, and no write begins after it.
///
/// A write suspends on its way to the socket (compressing a message hops to the compressor), so
/// without the gate a close frame could overtake a message, which the server would then get
/// after the close: a protocol error.
final class WriteGate: Sendable {
    private struct State {
        var writing = 0
        var closed = false
        var closer: CheckedContinuation<Void, Never>?
    }

    private let state = LockedState(State())

    /// Begins a write: `false` once the gate is closed.
    func enter() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.writing += 1
            return true
        }
    }

    /// Ends a write begun with ``enter()``.
    func leave() {
        let closer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.writing -= 1
            guard state.writing == 0 else { return nil }
            defer { state.closer = nil }
            return state.closer
        }
        closer?.resume()
    }

    /// Closes the gate and returns once the writes in progress have ended. One caller at a time:
    /// the one that sends the close frame.
    func closeAndWait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                state.closed = true
                if state.writing > 0 { state.closer = continuation }
                return state.writing == 0
            }
            if done { continuation.resume() }
        }
    }
}
#endif
