import Dispatch

/// A serial executor on a dispatch queue of its own, for an actor whose methods make blocking
/// system calls (file reads and writes, `fsync`): they run there, off Swift's cooperative thread
/// pool, whose few threads (one per core) every task in the process shares.
package final class BlockingIOExecutor: SerialExecutor {
    private let queue: DispatchQueue
    /// Marks the queue, so that code can tell it runs there.
    private let key = DispatchSpecificKey<Bool>()

    package init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the caller runs on this executor's queue.
    package var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
