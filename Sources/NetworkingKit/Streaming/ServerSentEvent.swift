/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML standard
/// defines it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event:` field, `message` when it had none.
    public var event: String
    /// The `data:` lines, joined by line feeds.
    public var data: String
    /// The last event ID at this event: set by an `id:` field of this or an earlier event, and
    /// sent back as `Last-Event-ID` when the stream reconnects; empty when none was set.
    public var id: String
    /// The reconnection time, in milliseconds, when this event's `retry:` field set one.
    public var retry: Int?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String = "", retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
