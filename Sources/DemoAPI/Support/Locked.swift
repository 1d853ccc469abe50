#if DemoAPI
import Foundation

/// A value guarded by a lock, so the server's state can be read from synchronous code such as
/// ``DemoStats/count(_:)`` without hopping onto an actor.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18 and `NIOLockedValueBox` lives in a module this
/// target does not declare, so this wraps `NSLock`, which every platform has.
final class Locked<Value: Sendable>: @unchecked Sendable {  // @unchecked: every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value; keep it short and never `await` inside.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif
