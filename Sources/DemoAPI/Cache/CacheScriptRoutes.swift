#if DemoAPI
import HTTPTypes  // names `HTTPField`, which Hummingbird does not re-export
import Hummingbird
import NIOCore

/// `/cache/{key}`: an answer shaped by its query, to test a client's HTTP cache against a real
/// server the way the public HTTP caching conformance suite does.
///
/// - `status=N` (200-599, default 200) and `h=Name:value`, repeatable, for each header field (the
///   value verbatim: dates with odd spacing, `Set-Cookie`, `Cache-Control`...).
/// - `body=TEXT`, default `"<key> #<n>"`, where `n` counts this key's requests: a body that says
///   which request the server answered.
/// - `drop_after=K`: from the `K+1`-th request for the key on, the connection is closed without an
///   answer, as an origin that cannot be reached (RFC 9111 §4.2.4's "disconnected").
/// - `h304=Name:value`, repeatable: a request carrying `If-None-Match` or `If-Modified-Since` is
///   answered `304 Not Modified` with these fields instead (whatever the condition says): how a
///   test has the origin update stored fields on a revalidation.
/// - `self_location=1`: a `Content-Location` naming the request's own path and query, as the
///   answer to a POST that is the resource's current representation (RFC 9110 §9.3.3).
///
/// `POST /cache/{key}` answers the same way (its body is not read).
///
/// Requests are counted per key (``DemoStats/Snapshot/faultAttempts``, key `cache/<key>`); the
/// route never honours `Range` itself, nor conditions unless `h304` asks, so a `206` or a `304` a
/// client gets for it otherwise came from the client's cache.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CacheScriptRoutes: Sendable {
    let state: DemoState

    static let maxHeaders = 32

    func register(on router: Router<DemoRequestContext>) {
        router.get("/cache/{key}") { request, context in
            try await answer(request, context)
        }
        router.post("/cache/{key}") { request, context in
            try await answer(request, context)
        }
    }

    private func answer(_ request: Request, _ context: DemoRequestContext) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let status = try request.queryInt("status", in: 200...599) ?? 200
        let dropAfter = try request.queryInt("drop_after", in: 0...1_000_000)
        let lines = request.uri.queryParameters.getAll("h")
        let notModifiedLines = request.uri.queryParameters.getAll("h304")
        guard key.count <= 200, lines.count + notModifiedLines.count <= Self.maxHeaders,
            let count = state.stats.recordFaultAttempt(key: "cache/" + key)
        else {
            throw APIError.badRequest("A key of at most 200 characters and at most \(Self.maxHeaders) h= fields.")
        }
        if let dropAfter, count > dropAfter {
            // As /faults/close: nothing is sent, the connection ends.
            context.channel.close(promise: nil)
            try await context.channel.closeFuture.get()
            return Response(status: .internalServerError)
        }
        let isConditional = request.headers[.ifNoneMatch] != nil || request.headers[.ifModifiedSince] != nil
        if !notModifiedLines.isEmpty, isConditional {
            return Response(status: .notModified, headers: try Self.fields(notModifiedLines))
        }
        var headers = try Self.fields(lines)
        if request.query("self_location") == "1" { headers[.contentLocation] = request.uri.description }
        let body = request.query("body") ?? "\(key) #\(count)"
        headers[.contentLength] = String(body.utf8.count)
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// Header fields from `Name:value` lines, the values verbatim.
    private static func fields(_ lines: [String]) throws -> HTTPFields {
        var headers = HTTPFields()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw APIError.badRequest("Each h= or h304= must be Name:value, not '\(line)'.")
            }
            headers.append(HTTPField(name: name, value: String(line[line.index(after: colon)...])))
        }
        return headers
    }
}
#endif
