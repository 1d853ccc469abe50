#if AsyncHTTPClientTransport || DemoAPI
public import NIOCore

extension NIOTransport {
    /// A task executor that runs a task's code on one of the transport's event loops, so that a
    /// call and the connection it is sent on share a thread: the request goes out and the answer
    /// comes back to the waiting task without waking another thread.
    ///
    /// Calls made one after another, each waiting for the one before, gain most from it (about a
    /// third more calls a second over loopback); with many calls in flight, the default executor
    /// does as well or better. Code that runs on it must not block: while it runs, the
    /// connections of that event loop wait. The event loop must outlive the tasks that prefer
    /// it: a loop that has shut down runs no more jobs, and such a task would never resume.
    ///
    /// ```swift
    /// let transport = NIOTransport.shared
    /// let client = LiveAPIClient(baseURL: url, transport: transport)
    /// let films = try await withTaskExecutorPreference(transport.taskExecutor()) {
    ///     try await client.send(Request<[PixarFilm]>(path: "/films"))
    /// }
    /// ```
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public final class LoopExecutor: TaskExecutor {
        /// The event loop the jobs run on.
        public let eventLoop: any EventLoop

        /// An executor for `eventLoop`.
        public init(_ eventLoop: any EventLoop) {
            self.eventLoop = eventLoop
        }

        public func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            eventLoop.execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// An executor on the next of the transport's event loops: give one to each task that makes
    /// calls (`withTaskExecutorPreference(_:operation:)`, `Task(executorPreference:)`); connections
    /// opened by calls on it are opened on its event loop, and its calls prefer them.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public func taskExecutor() -> LoopExecutor {
        LoopExecutor(configuration.eventLoopGroup.next())
    }
}
#endif
