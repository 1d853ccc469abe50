import Foundation

/// A value guarded by a lock: the small lock-protected box the house style prefers to
/// `@unchecked Sendable` on larger types.
///
/// `Synchronization.Mutex` would do the same job but needs macOS 15 / iOS 18; NetworkingKit
/// supports older systems, so this wraps `NSLock`. Package-visible so that the testing product and
/// the tests use the same box instead of writing their own.
package final class LockedState<Value>: @unchecked Sendable {  // @unchecked: every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
