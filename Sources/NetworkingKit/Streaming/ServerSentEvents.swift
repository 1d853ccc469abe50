import Foundation
import HTTPTypes

/// The events of a Server-Sent Events stream, reconnecting as the WHATWG standard says: the
/// answer of ``APIClient/events(_:options:)``.
///
/// When the connection ends or breaks, the sequence reconnects after the server's `retry:` time
/// (or ``EventStreamOptions/defaultRetry``), doubling the wait after each reconnection that brings
/// no event, with jitter, up to ``EventStreamOptions/maxReconnects`` in a row; each reconnection
/// sends `Last-Event-ID` and goes through the middleware chain (so an expired token is refreshed
/// first). A silence longer than the request's timeout (the client's, 60 s by default) counts as
/// a broken connection, as on any streamed answer: a server that sends nothing for longer, not even
/// a comment as a heartbeat, needs an endpoint with a longer timeout. A `204` ends the sequence:
/// the server asks the client to stop. Any other status than
/// 2xx, or a content type other than `text/event-stream`, ends it with an error. Cancelling the
/// consuming task closes the connection at once.
public struct ServerSentEvents: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent
    public typealias Failure = any Error

    let connect: @Sendable (_ headers: [String: String]) async throws -> StreamedResponse
    let options: EventStreamOptions

    /// Reads events; one iterator is one logical stream, its connections made one after the other.
    public final class AsyncIterator: AsyncIteratorProtocol {
        private let reader: EventStreamReader

        init(reader: EventStreamReader) {
            self.reader = reader
        }

        /// The next event, or `nil` once the server has said (with a `204`) that there are no more.
        public func next() async throws -> ServerSentEvent? {
            while let update = try await reader.next() {
                if case .event(let event) = update { return event }
            }
            return nil
        }

        /// Closes the connection and connects again at the next ``next()``, at once, with
        /// `Last-Event-ID` (so no event is lost or repeated); the count of reconnections that
        /// brought no event starts again. For an app that knows the connection is stale (it
        /// was in the background, its credentials changed) before the server does.
        public func restart() {
            reader.restart()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: EventStreamReader(connect: connect, options: options, reportsEverything: false))
    }

    /// The same stream with everything that happens on it: each connection opened, each
    /// reconnection and its wait and reason, the server's comments, and the events; see
    /// ``EventStreamUpdate``.
    ///
    /// ```swift
    /// for try await update in client.events(Feeds.live).updates {
    ///     switch update {
    ///     case .connected: status = "live"
    ///     case .reconnecting(let wait, _): status = "reconnecting in \(wait)"
    ///     case .event(let event): handle(event)
    ///     case .comment: break
    ///     }
    /// }
    /// ```
    public var updates: Updates {
        Updates(connect: connect, options: options)
    }

    /// A stream's updates: the answer of ``ServerSentEvents/updates``.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = EventStreamUpdate
        public typealias Failure = any Error

        let connect: @Sendable (_ headers: [String: String]) async throws -> StreamedResponse
        let options: EventStreamOptions

        /// Reads updates; one iterator is one logical stream.
        public final class AsyncIterator: AsyncIteratorProtocol {
            private let reader: EventStreamReader

            init(reader: EventStreamReader) {
                self.reader = reader
            }

            /// The next update, or `nil` once the server has said (with a `204`) that there are no more.
            public func next() async throws -> EventStreamUpdate? {
                try await reader.next()
            }

            /// Closes the connection and connects again at the next ``next()``, at once, with
            /// `Last-Event-ID`: also after a ``EventStreamUpdate/reconnecting(after:reason:)``,
            /// whose wait it skips. The count of reconnections that brought no event starts again.
            public func restart() {
                reader.restart()
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(reader: EventStreamReader(connect: connect, options: options, reportsEverything: true))
        }
    }
}

extension APIClient {
    /// Opens a Server-Sent Events stream (`text/event-stream`) and returns its events as they
    /// arrive, reconnecting when the connection ends or breaks; see ``ServerSentEvents``.
    ///
    /// ```swift
    /// for try await event in client.events(Feeds.live) {
    ///     print(event.event, event.data)
    /// }
    /// ```
    public func events(_ endpoint: some APIEndpoint, options: EventStreamOptions = EventStreamOptions()) -> ServerSentEvents {
        ServerSentEvents(
            connect: { headers in try await bytes(AdjustedEndpoint(base: endpoint, addedHeaders: headers)) },
            options: options)
    }
}
