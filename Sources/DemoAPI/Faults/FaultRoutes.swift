#if DemoAPI
import Foundation
import Hummingbird
import NIOCore

/// `/faults/...`: scriptable failures for testing a client's retries, timeouts and handling of broken
/// connections. Every count, size and wait is bounded so a test cannot hang the server.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FaultRoutes: Sendable {
    let state: DemoState

    static let maxDelayMilliseconds = 60_000
    static let maxTrickleBytes = 10_000
    /// Cap on a whole trickle (bytes × interval), so one request cannot run for hours.
    static let maxTrickleMilliseconds = 120_000
    static let maxTruncatedBytes = 1 << 20

    func register(on router: Router<DemoRequestContext>) {
        router.any("/faults/status/{code}") { request, context in
            try status(request, context)
        }
        router.get("/faults/delay/{ms}") { _, context in
            let milliseconds = try context.pathInt("ms", in: 0...Self.maxDelayMilliseconds)
            try await Task.sleep(for: .milliseconds(milliseconds))
            return try JSONBody.response(["delayed_ms": milliseconds])
        }
        router.get("/faults/trickle/{n}") { request, context in
            try trickle(request, context)
        }
        // The same answer to a request with a body (read whole first), which clients may send
        // another way than a bodiless one.
        router.post("/faults/trickle/{n}") { request, context in
            _ = try await request.body.collect(upTo: 1 << 20)
            return try trickle(request, context)
        }
        router.get("/faults/close") { _, context in
            // No Response can say "send nothing", so close the connection from here; the Response
            // returned afterwards fails to write on the closed channel and is never seen.
            context.channel.close(promise: nil)
            try await context.channel.closeFuture.get()
            return Response(status: .internalServerError)
        }
        router.get("/faults/truncated") { request, context in
            try truncated(request, context)
        }
        router.get("/faults/stall") { request, context in
            try await stall(request, context)
        }
    }

    /// The first of every `every` requests of a key stalls for `ms` milliseconds, the others
    /// answer at once: a tail of slow answers, for hedging. Each answer says which request it is.
    private func stall(_ request: Request, _ context: DemoRequestContext) async throws -> Response {
        let every = try request.queryInt("every", in: 1...1_000_000) ?? 100
        let milliseconds = try request.queryInt("ms", in: 0...Self.maxDelayMilliseconds) ?? 1000
        let key = request.query("key").flatMap { $0.isEmpty ? nil : $0 } ?? "stall"
        guard key.count <= 200, let attempt = state.stats.recordFaultAttempt(key: key) else {
            throw APIError(
                status: .badRequest, code: "too_many_keys",
                message: "Fault keys are limited to 200 characters and \(DemoStats.maxFaultKeys) per server; DELETE /stats resets them.")
        }
        if (attempt - 1) % every == 0 {
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
        return try JSONBody.response(FaultRecovery(key: key, attempts: attempt))
    }

    /// Answers `code` for the first `times` requests of a key, then 200 with the attempt count.
    private func status(_ request: Request, _ context: DemoRequestContext) throws -> Response {
        let code = try context.pathInt("code", in: 200...599)
        let times = try request.queryInt("times", in: 0...Int(Int32.max))
        let key = request.query("key").flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        guard key.count <= 200, let attempts = state.stats.recordFaultAttempt(key: key) else {
            throw APIError(
                status: .badRequest, code: "too_many_keys",
                message: "Fault keys are limited to 200 characters and \(DemoStats.maxFaultKeys) per server; DELETE /stats resets them.")
        }
        guard let times, attempts > times else {
            let status = HTTPResponse.Status(code: code)
            var error = APIError(
                status: status,
                code: APIError.defaultCode(for: status),
                message: "Injected fault \(code) for key '\(key)' (attempt \(attempts))."
            )
            if let retryAfter = request.query("retry_after") {
                // Sent verbatim; a '+' stands for a space, as forms encode the spaces of an HTTP-date.
                error.headers[.retryAfter] = retryAfter.replacingOccurrences(of: "+", with: " ")
            }
            return error.response()
        }
        return try JSONBody.response(FaultRecovery(key: key, attempts: attempts))
    }

    private struct FaultRecovery: Encodable {
        var key: String
        var attempts: Int
    }

    /// Declares `n` bytes and sends them one `t` at a time, `interval_ms` apart.
    private func trickle(_ request: Request, _ context: DemoRequestContext) throws -> Response {
        let count = try context.pathInt("n", in: 0...Self.maxTrickleBytes)
        let interval = try request.queryInt("interval_ms", in: 0...10_000) ?? 100
        guard count * interval <= Self.maxTrickleMilliseconds else {
            throw APIError.badRequest("A trickle may last at most \(Self.maxTrickleMilliseconds) ms (n × interval_ms).")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain"
        let body = ResponseBody(contentLength: count) { writer in
            for index in 0..<count {
                if index > 0, interval > 0 {
                    try await Task.sleep(for: .milliseconds(interval))
                }
                try await writer.write(ByteBuffer(string: "t"))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Declares `declared` bytes, sends only `sent` of them, then closes the connection.
    private func truncated(_ request: Request, _ context: DemoRequestContext) throws -> Response {
        let declared = try request.queryInt("declared", in: 1...Self.maxTruncatedBytes) ?? 100
        let sent = try request.queryInt("sent", in: 0...Self.maxTruncatedBytes) ?? 10
        guard sent < declared else {
            throw APIError.badRequest("'sent' must be smaller than 'declared'.")
        }
        let channel = context.channel
        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        let body = ResponseBody(contentLength: declared) { writer in
            if sent > 0 {
                try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: sent))
            }
            // The bytes above were handed to the channel before this close, and a channel runs its
            // operations in order, so they go out first; then the client sees the connection end.
            channel.close(promise: nil)
            try await channel.closeFuture.get()
            // Throwing stops Hummingbird from finishing the response on the closed connection.
            throw DeliberateTruncation()
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}

/// Thrown after `/faults/truncated` closed its connection mid-body; it only ends the response.
struct DeliberateTruncation: Error {}
#endif
