#if DemoAPI
import HTTPTypes  // names `HTTPField`, which Hummingbird does not re-export
import Hummingbird
import NIOCore

/// Live answers: `/events` (also at `/feed`), a Server-Sent Events stream, and `/ndjson`, JSON lines.
///
/// `/events?count=N` sends events `1...N` (`id: i`, `event: tick`, `data: {"n":i}`), starting after
/// the request's `Last-Event-ID`, so a client that reconnects continues where it was; once every
/// event has been sent, a reconnection is answered `204` (no more). `drop_after=K` closes the
/// connection after `K` events of each connection, midway; `retry=MS` sends a `retry:` field first;
/// `auth=required` answers `401` unless the request carries a valid access token (as `/me`);
/// `heartbeat=MS` keeps the connection open after the last event, sending a comment line every
/// `MS` milliseconds (for ten minutes at most), as live feeds do. A stream the client leaves before
/// its end is counted in ``DemoStats`` as a request on the route `"CLOSED /events"`, so a test can
/// wait for the server to see a cancelled stream's connection close.
@available(macOS 14, iOS 17, tvOS 17, *)
struct StreamRoutes: Sendable {
    let state: DemoState

    static let maxEvents = 100_000
    // A valid token, so the initializer cannot fail.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func register(on router: Router<DemoRequestContext>) {
        router.get("/events") { request, context in
            try events(request, context)
        }
        // The live feed the DocC samples read: the same stream.
        router.get("/feed") { request, context in
            try events(request, context)
        }
        router.get("/ndjson") { request, _ in
            try ndjson(request)
        }
    }

    private func events(_ request: Request, _ context: DemoRequestContext) throws -> Response {
        let count = try request.queryInt("count", in: 0...Self.maxEvents) ?? 10
        let dropAfter = try request.queryInt("drop_after", in: 1...Self.maxEvents)
        let retry = try request.queryInt("retry", in: 0...600_000)
        let heartbeat = try request.queryInt("heartbeat", in: 1...60_000)
        if request.query("auth") == "required" {
            _ = try AuthRoutes.authenticatedUser(request, state: state)
        }
        state.stats.recordLastEventID(request.headers[Self.lastEventID])
        let lastID = request.headers[Self.lastEventID].flatMap { Int($0) } ?? 0
        guard lastID < count else { return Response(status: .noContent) }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        let channel = context.channel
        let stats = state.stats
        let body = ResponseBody { writer in
            do {
                if let retry { try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n")) }
                var sent = 0
                for id in (lastID + 1)...count {
                    try await writer.write(ByteBuffer(string: "id: \(id)\nevent: tick\ndata: {\"n\":\(id)}\n\n"))
                    sent += 1
                    if let dropAfter, sent == dropAfter, id < count {
                        // As /faults/truncated: what was written goes out, then the connection ends.
                        channel.close(promise: nil)
                        try await channel.closeFuture.get()
                        throw DeliberateTruncation()
                    }
                }
                if let heartbeat {
                    // Bounded: a client that never leaves still ends the response after ten minutes.
                    for _ in 0..<(600_000 / heartbeat) {
                        try await Task.sleep(for: .milliseconds(heartbeat))
                        try await writer.write(ByteBuffer(string: ":\n"))
                    }
                }
                try await writer.finish(nil)
            } catch let error as DeliberateTruncation {
                throw error
            } catch {
                // A write failed: the client closed the connection before the end.
                stats.recordRequest(route: "CLOSED /events", conditional: false)
                throw error
            }
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// `count` lines of `{"id":i,"title":"Item i"}`.
    private func ndjson(_ request: Request) throws -> Response {
        let count = try request.queryInt("count", in: 0...1_000_000) ?? 10
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        let body = ResponseBody { writer in
            var buffer = ByteBuffer()
            for id in stride(from: 1, through: count, by: 1) {
                buffer.writeString("{\"id\":\(id),\"title\":\"Item \(id)\"}\n")
                if buffer.readableBytes >= 16 * 1024 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
#endif
