/// The background revalidations ``HTTPCache`` has under way, at most one per stored response, so
/// that many requests for one stale `stale-while-revalidate` entry start one revalidation.
final class BackgroundRevalidations: Sendable {
    private let tasks = LockedState<[String: Task<Void, Never>]>([:])

    /// Starts `operation` for `id` unless one is already running for it; returns whether it started.
    @discardableResult
    func start(_ id: String, _ operation: @escaping @Sendable () async -> Void) -> Bool {
        tasks.withLock { tasks in
            guard tasks[id] == nil else { return false }
            // Created under the lock, so the task's own removal (which takes the lock) always
            // follows its insertion.
            tasks[id] = Task { [self] in
                await operation()
                self.tasks.withLock { _ = $0.removeValue(forKey: id) }
            }
            return true
        }
    }

    /// Returns when no revalidation is running.
    func waitForAll() async {
        while true {
            let running = tasks.withLock { Array($0.values) }
            guard !running.isEmpty else { return }
            for task in running { await task.value }
        }
    }
}
