import Foundation

/// An append-only list that many tasks can add to at once; what test doubles record into.
final class Recorder<Value: Sendable>: Sendable {
    private let lock = NSLock()
    // nonisolated(unsafe): every access holds `lock`.
    private nonisolated(unsafe) var storage: [Value] = []

    func append(_ value: Value) {
        lock.withLock { storage.append(value) }
    }

    var values: [Value] {
        lock.withLock { storage }
    }
}
