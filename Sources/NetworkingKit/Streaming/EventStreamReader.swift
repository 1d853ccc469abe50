import Foundation
import HTTPTypes

/// One logical Server-Sent Events stream, its connections made one after the other: what both
/// ``ServerSentEvents`` (its events) and ``ServerSentEvents/Updates`` (everything) iterate.
///
/// When a connection ends or breaks, the wait before the next one is decided at once (so that an
/// update can say it), and slept at the next call, unless ``restart()`` came first.
final class EventStreamReader {
    private let connect: @Sendable ([String: String]) async throws -> StreamedResponse
    private let options: EventStreamOptions
    /// Whether connections, reconnections and comments are reported, or events only.
    private let reportsEverything: Bool
    private var parser: ServerSentEventParser
    private var body: HTTPBody.Iterator?
    private var request: RequestSummary?
    /// Updates parsed but not yet returned: `ready[readyIndex...]` (an index, not `removeFirst`,
    /// so a chunk of many events costs one pass).
    private var ready: [EventStreamUpdate] = []
    private var readyIndex = 0
    private var connections = 0
    /// Reconnections since the last event.
    private var failedReconnects = 0
    /// The wait before the next connection, decided when the last one ended.
    private var pendingWait: Duration?
    private var lastError: (any Error)?
    private var finished = false

    init(
        connect: @escaping @Sendable ([String: String]) async throws -> StreamedResponse, options: EventStreamOptions,
        reportsEverything: Bool
    ) {
        self.connect = connect
        self.options = options
        self.reportsEverything = reportsEverything
        self.parser = ServerSentEventParser(maxEventSize: options.maxEventSize, lastEventID: options.lastEventID)
    }

    /// The next update (only events, unless everything is reported), or `nil` once the server has
    /// said (with a `204`) that there are no more.
    func next() async throws -> EventStreamUpdate? {
        while true {
            if readyIndex < ready.count {
                defer { readyIndex += 1 }
                return ready[readyIndex]
            }
            if finished { return nil }
            do {
                try Task.checkCancellation()
                let update = body == nil ? try await open() : try await read()
                if finished { return nil }
                if reportsEverything, let update { return update }
            } catch {
                throw finish(with: error)
            }
        }
    }

    /// Closes the connection (if one is open) and connects again at the next call, at once, with
    /// `Last-Event-ID`; the count of reconnections that brought no event starts again.
    func restart() {
        guard !finished else { return }
        // Events already parsed are still handed out first: their IDs are in the parser's.
        if body != nil { dropConnection(nil) }
        pendingWait = nil
        failedReconnects = 0
    }

    /// Connects, after the wait the last connection's end decided: `.connected`, or
    /// `.reconnecting` when a reconnection failed below HTTP (it is tried again); `nil` when the
    /// server said stop.
    private func open() async throws -> EventStreamUpdate? {
        if let wait = pendingWait {
            pendingWait = nil
            try await options.clock.sleep(for: wait)
        }
        connections += 1
        var headers = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
        if !parser.lastEventID.isEmpty { headers["Last-Event-ID"] = parser.lastEventID }
        let answer: StreamedResponse
        do {
            answer = try await connect(headers)
        } catch let error as NetworkError where connections > 1 && Self.isReconnectable(error) {
            lastError = error
            return try scheduleReconnection(reason: error)
        }
        request = answer.request
        if answer.status == .noContent {
            finished = true
            return nil
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
        return .connected(answer.response)
    }

    /// Reads one chunk: its events (and comments) become ready; the end or a break of the
    /// connection schedules a reconnection, which is returned.
    private func read() async throws -> EventStreamUpdate? {
        guard var current = body else { return nil }
        let next: Data?
        do {
            next = try await current.next()
        } catch let error as NetworkError where Self.isReconnectable(error) {
            dropConnection(error)
            return try scheduleReconnection(reason: error)
        }
        guard let chunk = next else {
            dropConnection(nil)
            return try scheduleReconnection(reason: nil)
        }
        body = current
        do {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            var events = 0
            if reportsEverything {
                try parser.forEachEvent(in: chunk, comment: { self.ready.append(.comment($0)) }) {
                    events += 1
                    ready.append(.event($0))
                }
            } else {
                try parser.forEachEvent(in: chunk) {
                    events += 1
                    ready.append(.event($0))
                }
            }
            if events > 0 { failedReconnects = 0 }
            return nil
        } catch {
            throw NetworkError.responseTooLarge(limit: options.maxEventSize, request: request)
        }
    }

    /// Counts a reconnection and decides its wait; past ``EventStreamOptions/maxReconnects`` in a
    /// row without an event, ends the stream with the last error instead.
    private func scheduleReconnection(reason: NetworkError?) throws -> EventStreamUpdate {
        failedReconnects += 1
        guard failedReconnects <= options.maxReconnects else {
            throw lastError ?? NetworkError.transport(TransportFailure(kind: .connectionLost, request: request))
        }
        let wait = options.delay(attempt: failedReconnects, serverRetry: parser.retry)
        pendingWait = wait
        return .reconnecting(after: wait, reason: reason)
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
