import Foundation
import HTTPTypes
import Logging

/// The client's redirect step, between the middleware chain and the transport: it sends a request
/// and follows the redirects it gets by ``RedirectPolicy``, so middlewares see only final answers
/// and every transport follows the same rules.
struct RedirectFollower: Sendable {
    let transport: any HTTPTransport
    /// The transport again when it reports its own timing, found once rather than per call.
    private let timed: (any TimedHTTPTransport)?
    /// The transport again when it opens WebSocket connections.
    private let webSockets: (any WebSocketTransport)?

    init(transport: any HTTPTransport) {
        self.transport = transport
        self.timed = transport as? any TimedHTTPTransport
        self.webSockets = transport as? any WebSocketTransport
    }

    /// One exchange, with its timing: the transport's own, or the start and first byte measured
    /// around it. Inlined: a frame of its own would cost every call a task allocation.
    @inline(__always)
    private func exchange(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> HTTPAnswer {
        if context.plan.webSocket != nil { return try await openWebSocket(request, context: context) }
        if let timed { return try await timed.timedSend(request, body: body, context: context) }
        let start = ContinuousClock.now
        let (response, responseBody) = try await transport.send(request, body: body, context: context)
        return Self.answer(response, body: responseBody, startedAt: start)
    }

    /// The answer to a WebSocket upgrade, from a transport that can open one.
    private func openWebSocket(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPAnswer {
        guard let webSockets else {
            throw NetworkError.webSocket(
                WebSocketFailure(kind: .unsupported, detail: "\(type(of: transport)) is not a WebSocketTransport"))
        }
        return try await webSockets.openWebSocket(request, context: context)
    }

    /// An answer timed from `start` to its head, now. Not async, and kept out of line: in an
    /// async function every temporary of a timing would be a task allocation of its own.
    @inline(never)
    private static func answer(_ response: HTTPResponse, body: HTTPBody?, startedAt start: ContinuousClock.Instant) -> HTTPAnswer {
        var timing = RequestTiming(startingAt: start)
        timing.firstByte = start.duration(to: .now)
        var answer = HTTPAnswer(response, body: body)
        answer.timingBox = TimingBox(timing)
        return answer
    }

    /// `url` cut before its query and fragment, for a log line.
    static func withoutQuery(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(URL)" }
        let hadQuery = components.query != nil || components.fragment != nil
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return (components.string ?? "(URL)") + (hadQuery ? "?…" : "")
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> HTTPAnswer {
        // The timeout covers the request and all its hops: each hop gets what is left of it.
        let deadline = ContinuousClock.now + context.plan.timeout
        var answer = try await exchange(request, body: body, context: context)
        let step = context.networkLevelStep
        if let step { await step.received(answer.response, to: request, logger: context.logger) }
        let policy = context.plan.redirectPolicy
        guard policy.maxRedirects > 0, Self.isRedirect(answer.response.status), let firstURL = request.url else {
            return answer
        }

        var chain = RedirectChain(request: request, url: firstURL, body: body, policy: policy)
        while Self.isRedirect(answer.response.status), let location = answer.response.headerFields[.location] {
            let response = answer.response
            let hop = try chain.nextHop(to: location, after: response) { request, credentialsRemoved in
                step?.prepare(hop: &request, credentialsRemoved: credentialsRemoved)
            }
            context.logger.debug(
                "Following redirect",
                metadata: [
                    "http.status": "\(response.status.code)", "http.method": "\(hop.request.method.rawValue)",
                    // Without its query and fragment: with no LoggingMiddleware to redact the
                    // line, a token in the target (`?code=`, `#access_token=`) would be logged.
                    "url": "\(Self.withoutQuery(hop.url))", "hop": "\(chain.urls.count)",
                ])
            await HTTPBody.discard(answer.body)
            let hopContext = try Self.context(context, forHopBefore: deadline, of: request)
            answer = try await exchange(hop.request, body: hop.body, context: hopContext)
            if let step { await step.received(answer.response, to: hop.request, logger: context.logger) }
            chain.advance(to: hop)
        }
        // The timing is the last hop's: the exchange that brought the answer.
        answer.redirects = chain.urls.count > 1 ? chain.urls : []
        return answer
    }

    /// `context` for one more hop: the timeout is what is left of the whole call's.
    private static func context(
        _ context: RequestContext, forHopBefore deadline: ContinuousClock.Instant, of request: HTTPRequest
    ) throws -> RequestContext {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw NetworkError.timeout(RequestSummary(request)) }
        var hopContext = context
        hopContext.plan.timeout = remaining
        return hopContext
    }

    /// The statuses that are followed; 300 (a choice for the user), 304 and 305 are not.
    static func isRedirect(_ status: HTTPResponse.Status) -> Bool {
        switch status.code {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The `Location` value resolved against the URL it came from; only http and https qualify,
    /// with a host and port that can be connected to (a server's `:99999` is refused here).
    static func resolve(_ location: String, against base: URL) -> URL? {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            (try? URLBuilder.validate(url)) != nil
        else { return nil }
        return url
    }
}
