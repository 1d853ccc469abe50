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
        private let connect: @Sendable ([String: String]) async throws -> StreamedResponse
        private let options: EventStreamOptions
        private var parser: ServerSentEventParser
        private var body: HTTPBody.Iterator?
        private var request: RequestSummary?
        /// Events parsed but not yet returned: `ready[readyIndex...]` (an index, not `removeFirst`,
        /// so a chunk of many events costs one pass).
        private var ready: [ServerSentEvent] = []
        private var readyIndex = 0
        private var connections = 0
        /// Reconnections since the last event.
        private var failedReconnects = 0
        private var lastError: (any Error)?
        private var finished = false

        init(connect: @escaping @Sendable ([String: String]) async throws -> StreamedResponse, options: EventStreamOptions) {
            self.connect = connect
            self.options = options
            self.parser = ServerSentEventParser(maxEventSize: options.maxEventSize, lastEventID: options.lastEventID)
        }

        /// The next event, or `nil` once the server has said (with a `204`) that there are no more.
        public func next() async throws -> ServerSentEvent? {
            while true {
                if readyIndex < ready.count {
                    defer { readyIndex += 1 }
                    return ready[readyIndex]
                }
                if finished { return nil }
                do {
                    try Task.checkCancellation()
                    if body == nil, try await !open() { return nil }
                    try await read()
                } catch {
                    throw finish(with: error)
                }
            }
        }

        /// Connects (waiting first when it is a reconnection); `false` when the server said stop.
        private func open() async throws -> Bool {
            if connections > 0 {
                failedReconnects += 1
                guard failedReconnects <= options.maxReconnects else {
                    throw lastError ?? NetworkError.transport(TransportFailure(kind: .connectionLost, request: request))
                }
                try await options.clock.sleep(for: options.delay(attempt: failedReconnects, serverRetry: parser.retry))
            }
            connections += 1
            var headers = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
            if !parser.lastEventID.isEmpty { headers["Last-Event-ID"] = parser.lastEventID }
            let answer: StreamedResponse
            do {
                answer = try await connect(headers)
            } catch let error as NetworkError where connections > 1 && Self.isReconnectable(error) {
                // A reconnection that failed below HTTP counts against the limit and is tried again.
                lastError = error
                return true
            }
            request = answer.request
            if answer.status == .noContent {
                finished = true
                return false
            }
            let type = answer.headerFields[.contentType]?.lowercased() ?? ""
            guard type.hasPrefix("text/event-stream") else {
                throw NetworkError.decodingFailed(
                    DecodingFailure(
                        typeName: "ServerSentEvent", codingPath: "",
                        reason: "the answer is \(type.isEmpty ? "without a content type" : type), not text/event-stream",
                        snippet: "", request: answer.request, underlying: nil))
            }
            body = answer.body.makeAsyncIterator()
            return true
        }

        /// Reads one chunk: its events become ready; the end or a break of the connection leads
        /// to a reconnection.
        private func read() async throws {
            guard var current = body else { return }
            do {
                guard let chunk = try await current.next() else {
                    dropConnection(nil)
                    return
                }
                body = current
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                try parser.forEachEvent(in: chunk) { ready.append($0) }
                if !ready.isEmpty { failedReconnects = 0 }
            } catch is ServerSentEventParser.EventTooLarge {
                throw NetworkError.responseTooLarge(limit: options.maxEventSize, request: request)
            } catch let error as NetworkError where Self.isReconnectable(error) {
                dropConnection(error)
            }
        }

        private func dropConnection(_ error: (any Error)?) {
            body = nil
            parser.finish()
            if let error { lastError = error }
        }

        private func finish(with error: any Error) -> any Error {
            finished = true
            body = nil
            if error is CancellationError || Task.isCancelled { return NetworkError.cancelled }
            return error
        }

        /// Failures after which a stream reconnects: the connection, not the server's answer.
        private static func isReconnectable(_ error: NetworkError) -> Bool {
            switch error {
            case .transport, .timeout: true
            default: false
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(connect: connect, options: options)
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
