public import Foundation
public import HTTPTypes
public import Metrics

/// A middleware that lets identical GET and HEAD requests in flight at the same time share one
/// network call: when a view appears twice, or a user switches tabs quickly, the server is asked
/// once and every caller gets the answer.
///
/// ```swift
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: url,
///     middlewares: [authentication, RequestDeduplicator(), RetryMiddleware()]
/// ))
/// ```
///
/// Place it after the authentication middleware (`AuthenticationMiddleware`), so that it sees the
/// credential really sent, and before cache and retry, so that one shared call is looked up,
/// cached and retried once for everyone.
///
/// ## What is shared
///
/// Requests share a call only when everything that can change the answer is the same: the
/// method, the URL, every header field (so requests with different credentials, `Accept` or
/// `Accept-Language` never do) except ``ignoredHeaders``, and the timeout, size limit and redirect
/// policy of their options. These are never merged and go down the chain as they are:
/// - methods other than GET and HEAD, which may change the server's state;
/// - requests with a body;
/// - requests whose `Cache-Control` says `no-cache`, `no-store` or `max-age=0`, or with
///   `Pragma: no-cache`: they ask for an answer produced for them;
/// - endpoints that opt out with ``RequestOptions/allowsDeduplication``.
///
/// The call runs in the task of the caller that started it, with its request and
/// ``RequestContext`` (its request id, its logger, its other options). When nobody has joined by
/// the time the response head arrives, the call ends there and that caller reads the body as it
/// streams, as if there were no deduplicator. Otherwise the body is read once into memory,
/// bounded by ``RequestOptions/maxResponseBodySize`` (a larger body fails every caller with the
/// same ``NetworkError/responseTooLarge(limit:request:)``), and each caller gets a body of its
/// own over those bytes. Of a failed response (not 2xx) only as much body is kept as the client
/// reads for its error (``HTTPFailure/maxBodyCopy``). Errors are shared too. A caller arriving
/// after the call ended starts a new one: nothing is kept once it ends, which is the cache's job.
///
/// ## Cancellation
///
/// A caller that joined a call and is cancelled is removed and throws ``NetworkError/cancelled``
/// at once; the call goes on for the others. Cancelling the caller that started the call cancels
/// its request, since it runs in that caller's task; the callers that joined it are not failed
/// by a cancellation that was not theirs: they send the request again, one new call shared by all
/// of them.
///
/// One instance keeps one table of calls in flight; give each client its own unless clients
/// should share calls.
public final class RequestDeduplicator: Middleware {
    /// Header fields left out of the comparison by default: the ids that logging and tracing give
    /// each call (`X-Request-ID`, `X-Correlation-ID`, W3C `traceparent` / `tracestate`, Zipkin B3),
    /// which do not change the answer but would otherwise stop any two calls from being merged.
    ///
    /// The shared call sends the values of the caller that started it.
    public static let defaultIgnoredHeaders: Set<HTTPField.Name> = Set(
        [
            "x-request-id", "x-correlation-id", "traceparent", "tracestate",
            "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags",
        ].compactMap { HTTPField.Name($0) })

    /// Header fields that requests may differ in and still share a call.
    public let ignoredHeaders: Set<HTTPField.Name>

    private let responses: InFlightCalls<DeduplicationKey, Answer>
    private let values: InFlightCalls<String, Data>

    /// Creates a deduplicator.
    /// - Parameters:
    ///   - ignoredHeaders: Header fields that do not change the answer, so requests that
    ///     differ only in them may share a call. Never put a credential here: requests with
    ///     different credentials would then share one answer.
    ///   - metricsFactory: Where `networkingkit_deduplicated_total` (callers that joined a call
    ///     already in flight) is counted; `nil` uses `MetricsSystem.factory` (a no-op until a
    ///     backend is bootstrapped).
    public init(
        ignoredHeaders: Set<HTTPField.Name> = RequestDeduplicator.defaultIgnoredHeaders,
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.ignoredHeaders = ignoredHeaders
        let shared = Counter(label: "networkingkit_deduplicated_total", factory: metricsFactory ?? MetricsSystem.factory)
        self.responses = InFlightCalls { shared.increment() }
        self.values = InFlightCalls { shared.increment() }
    }

    /// Sends the request, or waits for the identical request already in flight and returns a copy
    /// of its answer.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        // A streamed answer is read by one caller as it arrives: there is no copy to share.
        guard !context.plan.streamsResponseBody,
            let key = DeduplicationKey(request, body: body, context: context, ignoring: ignoredHeaders)
        else {
            return try await next(request, body, context)
        }
        let plan = context.plan
        let limit = plan.responseBodyLimit ?? .max
        let shared = try await responses.value(for: key) {
            .streamed(try await next(request, nil, context))
        } share: { shared in
            guard case .streamed(var answer) = shared else { return shared }
            let data = try await Self.buffer(answer.body, of: answer.response, limit: limit, plan: plan)
            answer.body = nil
            return .buffered(answer, data)
        }
        switch shared {
        case .streamed(let answer):
            return answer
        case .buffered(var answer, let data):
            // A body per caller: each may read it, once or more, without taking bytes from another.
            // The rest of the answer (its redirects, its cache status) is the shared call's.
            answer.body = data.map { HTTPBody($0) }
            return answer
        }
    }

    /// Runs `operation`, or waits for the one already running under `key` and returns its result:
    /// the seed's shape, for work that is not a request through the middleware chain.
    ///
    /// ```swift
    /// let data = try await deduplicator.deduplicate(key: "films") {
    ///     try await loadFilmsData()
    /// }
    /// ```
    ///
    /// The rules are the middleware's: errors are shared; a caller that joined and is cancelled
    /// throws ``NetworkError/cancelled`` at once; the operation runs in the task of the caller
    /// that started it and is cancelled with it, and then the callers that joined run it again,
    /// once for all of them. These keys are kept apart from the middleware's requests.
    /// - Parameters:
    ///   - key: Identifies the work; calls with equal keys in flight at the same time share one run.
    ///   - operation: The work, run by the caller that finds none in flight.
    /// - Returns: What the shared run of `operation` returned.
    public func deduplicate(key: String, operation: @escaping @Sendable () async throws -> Data) async throws -> Data {
        try await values.value(for: key, operation: operation)
    }

    /// The number of shared calls in flight, for tests and diagnostics.
    package var inFlightCount: Int {
        responses.callCount + values.callCount
    }

    /// The number of callers of the shared calls in flight, those that started them included, for
    /// tests and diagnostics.
    package var waiterCount: Int {
        responses.callerCount + values.callerCount
    }

    /// Reads a response body once, for every caller: a successful answer in full up to `limit`,
    /// as the client would, a failed one as far as its caller will see it (``CallPlan/failedBody(_:)``).
    private static func buffer(_ body: HTTPBody?, of response: HTTPResponse, limit: Int, plan: CallPlan) async throws -> Data? {
        guard response.status.kind == .successful else { return try await plan.failedBody(body) }
        return try await body?.collect(upTo: limit)
    }
}

/// A call's answer: as the chain returned it, for a caller that shares it with nobody, or with
/// its body read (and taken off the answer), so that every caller can be given a copy.
private enum Answer: Sendable {
    case streamed(HTTPAnswer)
    case buffered(HTTPAnswer, Data?)
}
