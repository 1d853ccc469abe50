public import HTTPTypes

/// What happens on a Server-Sent Events stream, in order: the elements of
/// ``ServerSentEvents/updates``, for an app that shows the connection's state or reads the
/// server's comments as well as its events.
@nonexhaustive
public enum EventStreamUpdate: Sendable, Equatable {
    /// A connection is open: the server answered with a `2xx` `text/event-stream` head. The first
    /// connection and every reconnection report one.
    case connected(HTTPResponse)
    /// An event.
    case event(ServerSentEvent)
    /// A comment line (`: text`), without its colon and one space after it: what servers send as
    /// a heartbeat, which the events alone never show.
    case comment(String)
    /// The connection ended (`reason` is `nil`: the server closed it) or broke, or a reconnection
    /// failed (`reason` says why): the stream connects again, with `Last-Event-ID`, once `after`
    /// has passed, or at once after ``ServerSentEvents/Updates/AsyncIterator/restart()``.
    case reconnecting(after: Duration, reason: NetworkError?)
}
