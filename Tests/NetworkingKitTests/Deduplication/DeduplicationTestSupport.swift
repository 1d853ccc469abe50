import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting

/// A door that stub transport handlers wait at until the test opens it, so that a test holds
/// calls in flight for exactly as long as it needs, without sleeping. Waiting also ends when the
/// waiting task is cancelled, so a test can see a cancelled call end.
final class TransportGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = LockedState(State())

    /// How many tasks wait at the gate now.
    var waitingCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Returns when the gate is open or the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let mustWait = state.withLock { state in
                    guard !state.isOpen, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !mustWait { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Lets every waiting task through, and every task that comes later.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A body that can be read once, as a transport's is, in two chunks.
func singleReadBody(_ text: String, lengthKnown: Bool = true) -> HTTPBody {
    let (stream, continuation) = AsyncStream<Data>.makeStream()
    let bytes = Data(text.utf8)
    let middle = bytes.count / 2
    continuation.yield(bytes.prefix(middle))
    continuation.yield(bytes.dropFirst(middle))
    continuation.finish()
    return HTTPBody(stream, length: lengthKnown ? .known(Int64(bytes.count)) : .unknown, iterationBehavior: .single)
}

/// Whether a call ended with `NetworkError.cancelled`.
func endedCancelled<Value>(_ result: Result<Value, any Error>) -> Bool {
    if case .cancelled? = networkError(of: result) { return true }
    return false
}
