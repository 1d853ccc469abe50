/// How ``APIClient/events(_:options:)`` reads and reconnects a Server-Sent Events stream.
public struct EventStreamOptions: Sendable {
    /// The wait before reconnecting when the server has not set one with a `retry:` field.
    public var defaultRetry: Duration = .seconds(3)
    /// How many reconnections in a row may fail to bring an event before the stream ends with
    /// the last error; receiving an event starts the count again.
    public var maxReconnects: Int = 5
    /// The longest wait between two reconnections: each failed one doubles the wait, up to this.
    public var maxRetry: Duration = .seconds(60)
    /// The shortest wait before a reconnection, whatever the server's `retry:` says: a server
    /// that sends `retry: 0` and closes would otherwise be called back in a tight loop.
    public var minRetry: Duration = .milliseconds(500)
    /// The event ID the stream continues from, as the standard's last event ID buffer: sent as
    /// `Last-Event-ID` from the first connection on, so that an app that kept the ID of the last
    /// event it handled (across a relaunch, say) asks only for the events after it. Empty (the
    /// default) for none; an ID with a control character is ignored, as one in the stream is.
    public var lastEventID = ""
    /// The largest event (or line) accepted, in bytes; a larger one ends the stream with
    /// ``NetworkError/responseTooLarge(limit:request:)`` instead of growing memory.
    public var maxEventSize: Int = 1024 * 1024
    /// The clock reconnection waits on; tests pass a clock that does not wait.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// A random number in `0..<1` for the jitter: a wait is between half and all of its value, so
    /// that many clients dropped at once do not all come back at once.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Options with the defaults.
    public init() {}

    /// The wait before reconnection number `attempt` (1 for the first after a drop).
    func delay(attempt: Int, serverRetry: Int?) -> Duration {
        let base = max(serverRetry.map { Duration.milliseconds($0) } ?? defaultRetry, minRetry)
        var delay = base
        for _ in 1..<max(1, attempt) where delay < maxRetry { delay *= 2 }
        delay = min(delay, maxRetry)
        // The jitter takes up to half off, never below the floor.
        return max(delay / 2 + delay / 2 * min(max(random(), 0), 1), minRetry)
    }
}
