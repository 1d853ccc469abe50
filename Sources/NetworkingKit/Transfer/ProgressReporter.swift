/// Turns byte counts into throttled ``TransferProgress`` events.
///
/// Throttled by bytes, not time, so that what a handler sees is deterministic: an event each time
/// the count has grown by ``step`` (1% of a known total, at least 64 KiB; 1 MiB when the total
/// is unknown), and a final one from ``finish()``. Values never decrease: a body sent again by a
/// retry counts from where it got to, not from zero.
package final class ProgressReporter: Sendable {
    private struct State {
        var completed: Int64
        var total: Int64?
        var lastReported: Int64?
        var isFinished = false
    }

    private let handler: ProgressHandler
    private let state: LockedState<State>

    static let minimumStep: Int64 = 64 * 1024
    static let unknownTotalStep: Int64 = 1024 * 1024

    /// - Parameters:
    ///   - completed: Bytes already there (a resumed download's partial file).
    ///   - total: The total, when known.
    package init(completed: Int64 = 0, total: Int64?, handler: @escaping ProgressHandler) {
        self.handler = handler
        self.state = LockedState(State(completed: completed, total: total))
    }

    private static func step(for total: Int64?) -> Int64 {
        guard let total else { return unknownTotalStep }
        return max(minimumStep, total / 100)
    }

    /// Sets the total once it is known (a response head arrived), and where the count stands.
    package func start(completed: Int64, total: Int64?) {
        let event = state.withLock { state -> TransferProgress? in
            state.completed = completed
            state.total = total
            return Self.event(&state, force: true)
        }
        event.map(handler)
    }

    /// Adds `bytes` transferred.
    package func add(_ bytes: Int64) {
        let event = state.withLock { state -> TransferProgress? in
            state.completed += bytes
            // A body sent again (a retry, a redirect) counts again; the total caps it.
            if let total = state.total { state.completed = min(state.completed, total) }
            return Self.event(&state, force: false)
        }
        event.map(handler)
    }

    /// Reports the final value: the total when it is known, what was counted otherwise.
    package func finish() {
        let event = state.withLock { state -> TransferProgress? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            if let total = state.total { state.completed = total }
            if state.total == nil { state.total = state.completed }
            return Self.event(&state, force: true)
        }
        event.map(handler)
    }

    /// The event to report now, if any, marking it reported.
    private static func event(_ state: inout State, force: Bool) -> TransferProgress? {
        guard !state.isFinished || force else { return nil }
        if let last = state.lastReported {
            guard state.completed > last else { return nil }
            guard force || state.completed - last >= step(for: state.total) else { return nil }
        }
        state.lastReported = state.completed
        return TransferProgress(completed: state.completed, total: state.total)
    }
}
