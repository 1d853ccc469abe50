#if canImport(Darwin)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock: the small lock-protected box the house style prefers to
/// `@unchecked Sendable` on larger types.
///
/// `Synchronization.Mutex` would do the same job but needs macOS 15 / iOS 18, and NetworkingKit
/// supports older systems. The value and its lock live in one allocation (an `NSLock` box took
/// three: the box, the lock object and its mutex; a call makes several boxes). Copies share the
/// box, as references do. Public as SPI (`@_spi(Transport) import NetworkingKit`) so that a
/// transport of another package, the testing product and the tests use the same box instead of
/// writing their own; no stability is promised for it.
@_spi(Transport) public struct LockedState<Value: Sendable>: @unchecked Sendable {  // @unchecked: every access to the value holds the lock.
    #if canImport(Darwin)
    private typealias Lock = os_unfair_lock
    #else
    private typealias Lock = pthread_mutex_t
    #endif

    /// The value as the header, the lock as the one element: tail-allocated, so its address is
    /// stable for as long as the box lives, as a mutex requires.
    private final class Storage: ManagedBuffer<Value, Lock> {
        deinit {
            withUnsafeMutablePointerToElements { lock in
                #if !canImport(Darwin)
                pthread_mutex_destroy(lock)
                #endif
                lock.deinitialize(count: 1)
            }
        }
    }

    private let storage: Storage

    public init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
            #endif
        }
        // `create` makes an instance of the class it is called on.
        storage = unsafeDowncast(buffer, to: Storage.self)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }
}
