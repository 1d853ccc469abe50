public import Foundation
import HTTPTypes
import Logging

/// The real ``APIClient``: builds each request, runs it through the middleware chain and the
/// transport, validates the status, and decodes the answer.
///
/// ```swift
/// let client = LiveAPIClient(
///     baseURL: URL(string: "https://api.example.com/v1")!,
///     middlewares: [
///         RequestInterceptorMiddleware { request in
///             var request = request
///             request.setValue("demo", forHTTPHeaderField: "X-API-Key")
///             return request
///         }
///     ]
/// )
/// ```
///
/// A 2xx answer is decoded into the requested type; any other status becomes the matching
/// ``NetworkError`` with the server's error body decoded. Everything that can be checked before
/// sending (the URL, the headers, the body's encoding) is checked first, so a bad request fails
/// with no byte on the wire.
public struct LiveAPIClient: APIClient {
    /// The client's configuration.
    public let configuration: Configuration
    let chain: MiddlewareChain
    /// The default headers, validated once here rather than on every request; an invalid one
    /// fails every call with the same error.
    private let defaultFields: Result<DefaultFields, NetworkError>
    /// The base URL taken apart once, for requests relative to it.
    private let parsedBase: ParsedBaseURL?
    /// The base URL's origin: where the default headers' credentials, and by default
    /// ``AuthenticationMiddleware``'s, are sent.
    private let baseOrigin: SharedOrigin?
    /// Ends calls at their call timeout, on the configuration's clock.
    private let deadlines: DeadlineWatch

    /// Creates a client from a configuration.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.chain = MiddlewareChain(middlewares: configuration.middlewares, transport: configuration.transport)
        self.deadlines = configuration.clock is ContinuousClock ? .shared : DeadlineWatch(clock: configuration.clock)
        self.parsedBase = configuration.baseURL.flatMap(ParsedBaseURL.init)
        let baseOrigin = parsedBase.flatMap { base in configuration.baseURL.map { Origin($0, spelledAs: base) } }
        self.baseOrigin = baseOrigin.map(SharedOrigin.init)
        self.defaultFields = Result {
            var fields = HTTPFields()
            try HeaderValidation.merge(configuration.defaultHeaders, into: &fields)
            return DefaultFields(
                fields, origin: baseOrigin,
                credentials: configuration.redirectPolicy.headersRemovedAcrossOrigins)
        }.mapError { $0 as? NetworkError ?? .unknown($0) }
    }

    /// Creates a client with the default coders and limits.
    ///
    /// `baseURL` is not optional, so that `URL(string:)` with a typo cannot quietly make a client
    /// with no base URL: unwrap it where you make it. A client whose endpoints all give absolute
    /// URLs has none: `LiveAPIClient(configuration: .init(baseURL: nil, ...))`.
    public init(
        baseURL: URL,
        transport: any HTTPTransport = URLSessionTransport.shared,
        middlewares: [any Middleware] = []
    ) {
        self.init(configuration: Configuration(baseURL: baseURL, transport: transport, middlewares: middlewares))
    }

    /// Sends an endpoint and decodes its answer, keeping the response details.
    public func response<T: Decodable & Sendable>(
        _ endpoint: some APIEndpoint,
        as type: T.Type = T.self
    ) async throws -> Response<T> {
        try await perform(try RequestTarget(endpoint), as: type)
    }

    /// One call, built and ready to go down the chain.
    struct Prepared {
        let start: ContinuousClock.Instant
        let request: HTTPRequest
        let body: HTTPBody?
        let summary: RequestSummary
        let context: RequestContext
        /// The limit for reading a successful body, and for the copy kept of a failed one (bounded by
        /// the client's limit when a streamed call has none).
        let limit: Int
        let deadline: CallDeadline?
        /// Told about the request body's progress, when the caller asked for it.
        let uploadProgress: ProgressReporter?
    }

    /// Builds the request and decides the call's plan, once: middlewares and transports read the
    /// values the call gets, never "use the default".
    func prepare(
        _ target: RequestTarget, accept: HTTPField?, streamsResponseBody: Bool = false, webSocket: WebSocketOptions? = nil
    ) throws -> Prepared {
        let start = ContinuousClock.now
        var (request, body) = try target.build(
            clientBase: configuration.baseURL, encoder: configuration.encoder, parsedBase: parsedBase, defaultFields: defaultFields.get(),
            accept: accept)
        let summary = RequestSummary(request)
        let options = target.options
        var plan = CallPlan(
            resolving: options, timeout: configuration.timeout, responseBodyLimit: configuration.maxResponseBodySize,
            redirectPolicy: configuration.redirectPolicy, streamsResponseBody: streamsResponseBody)
        if let webSocket { plan.webSocket = webSocket }
        if let given = options.credentialOrigin {
            try Self.withholdCredentials(from: &request, givenFor: given, policy: plan.redirectPolicy)
        }
        let callTimeout = options.callTimeout ?? configuration.callTimeout
        if let compression = options.requestCompression {
            // Before the progress observer: progress counts the bytes that go on the wire, which a
            // transport that spools a stream to a file (URLSession) reports as it sends them.
            body = try compression.apply(to: &request, body: body)
        }
        var uploadProgress: ProgressReporter?
        if let handler = options.uploadProgress, let sent = body {
            let total: Int64? = if case .known(let length) = sent.length { length } else { nil }
            let reporter = ProgressReporter(total: total, handler: handler)
            body = sent.observingReads { reporter.add($0) }
            uploadProgress = reporter
        }
        let requestID = Self.makeRequestID()
        var logger = configuration.logger
        // Setting metadata on a logger that writes nothing would only copy it.
        if !logger.writesNothing {
            logger[metadataKey: "request-id"] = .string(requestID)
        }
        let deadline = callTimeout.map { deadlines.deadline(after: $0) }
        var context = RequestContext(options: options, plan: plan, requestID: requestID, logger: logger, deadline: deadline)
        context.operation = OperationName(options: options, endpoint: target.endpoint)
        context.clientOrigin = baseOrigin
        return Prepared(
            start: start, request: request, body: body, summary: summary, context: context,
            limit: plan.responseBodyLimit ?? configuration.maxResponseBodySize, deadline: deadline,
            uploadProgress: uploadProgress)
    }

    /// Sends a prepared call down the chain; a status other than 2xx becomes its ``NetworkError``
    /// unless the plan takes such answers (``CallPlan/validatesStatus``).
    private func exchange(_ call: Prepared) async throws -> HTTPAnswer {
        let answer = try await chain.send(call.request, call.body, call.context)
        guard answer.response.status.kind == .successful else {
            guard !call.context.plan.validatesStatus else {
                throw try await failure(for: answer.response, body: answer.body, request: call.summary, limit: call.limit)
            }
            return answer
        }
        call.uploadProgress?.finish()
        return answer
    }

    /// The exchange with the answer's body read whole, within the call's size limit (and taken
    /// off the answer), its last byte dated.
    private func collectedExchange(_ call: Prepared) async throws -> (HTTPAnswer, Data) {
        var answer = try await exchange(call)
        let data = try await answer.body?.collect(upTo: call.limit) ?? Data()
        answer.body = nil
        Self.markLastByte(of: &answer)
        return (answer, data)
    }

    /// Dates the answer's last byte, now. Not async, and kept out of line: in an async function
    /// every temporary of a timing would be a task allocation of its own.
    @inline(never)
    private static func markLastByte(of answer: inout HTTPAnswer) {
        guard let timing = answer.timing else { return }
        answer.timing?.lastByte = timing.elapsed()
    }

    private func perform<T: Decodable & Sendable>(_ target: RequestTarget, as type: T.Type) async throws -> Response<T> {
        var summary: RequestSummary?
        do {
            let accepted = target.options.acceptableContentTypes ?? (target.options.decoder ?? configuration.decoder).acceptableContentTypes
            let call = try prepare(target, accept: ResponseDecoding.accept(for: type, decoding: accepted))
            summary = call.summary
            try Task.checkCancellation()
            // A closure (and its allocation) only for a call with a deadline.
            let (answer, data) =
                if let deadline = call.deadline {
                    try await run({ try await self.collectedExchange(call) }, before: deadline, request: call.summary)
                } else {
                    try await collectedExchange(call)
                }
            let value = try ResponseDecoding.decode(
                type, from: data, response: answer.response, method: call.request.method,
                decoder: call.context.options.decoder ?? configuration.decoder,
                acceptableContentTypes: call.context.options.acceptableContentTypes, request: call.summary)
            return Response(
                value: value, request: call.summary, response: answer.response, data: data,
                duration: ContinuousClock.now - call.start, redirectChain: answer.redirects,
                cacheStatus: answer.cacheStatus, timingBox: answer.timingBox)
        } catch {
            throw summary.map { Self.normalize(error, request: $0) } ?? error
        }
    }

    /// Sends an endpoint and returns as soon as the response head has arrived, with the body as a
    /// stream of chunks read as they arrive.
    ///
    /// ```swift
    /// let answer = try await client.bytes(LogsEndpoint.tail)
    /// for try await chunk in answer.body {
    ///     parser.feed(chunk)
    /// }
    /// ```
    ///
    /// The call goes through the whole middleware chain (authentication, retries of the request,
    /// redirects, logging). A status other than 2xx throws the same ``NetworkError`` as
    /// ``response(_:as:)``. The body has no size limit unless the endpoint's
    /// ``RequestOptions/maxResponseBodySize`` sets one. The call timeout ends with the response
    /// head, and the request's timeout then bounds each wait for the next part of the body: the
    /// body may take as long as it takes while it keeps coming. Stop reading (or cancel the task)
    /// to close the connection.
    public func bytes(_ endpoint: some APIEndpoint) async throws -> StreamedResponse {
        try await stream(try RequestTarget(endpoint))
    }

    private func stream(_ target: RequestTarget) async throws -> StreamedResponse {
        var summary: RequestSummary?
        do {
            let call = try prepare(target, accept: nil, streamsResponseBody: true)
            summary = call.summary
            try Task.checkCancellation()
            let limit = call.context.plan.responseBodyLimit
            // Sendable for the deadline's task: the body is a stream still to be read.
            let exchange: @Sendable () async throws -> StreamedResponse = {
                let answer = try await self.exchange(call)
                return StreamedResponse(
                    request: call.summary, response: answer.response,
                    body: StreamedResponse.body(answer.body, limit: limit, request: call.summary),
                    redirectChain: answer.redirects, cacheStatus: answer.cacheStatus, timingBox: answer.timingBox)
            }
            if let deadline = call.deadline {
                return try await run(exchange, before: deadline, request: call.summary)
            }
            return try await exchange()
        } catch {
            throw summary.map { Self.normalize(error, request: $0) } ?? error
        }
    }

    /// Runs `operation`, or fails with ``NetworkError/timeout(_:)`` when `deadline` comes first.
    ///
    /// The operation runs in a task of its own, which the client's ``DeadlineWatch`` cancels at the
    /// deadline: cancellation is what interrupts whatever it waits for (a transport, a refresh, a
    /// backoff), and it cannot be the caller's task, which would stay cancelled after the call.
    /// No task sleeps until the deadline: one task watches every call's.
    func run<Result: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Result,
        before deadline: CallDeadline,
        request: RequestSummary
    ) async throws -> Result {
        guard !deadline.hasPassed else { throw NetworkError.timeout(request) }
        let task = Task { try await operation() }
        let expired = LockedState(false)
        let ticket = deadlines.arm(atElapsed: deadline.at) {
            expired.withLock { $0 = true }
            task.cancel()
        }
        defer { deadlines.disarm(ticket) }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            // Cancelled by the watch, not by the caller: the deadline is what ended it.
            if expired.withLock({ $0 }), !Task.isCancelled { throw NetworkError.timeout(request) }
            throw error
        }
    }

    /// Reads a bounded copy of a failed response's body and decodes the server's error from it.
    func failure(for response: HTTPResponse, body: HTTPBody?, request: RequestSummary, limit: Int) async throws
        -> NetworkError
    {
        let copy = try await HTTPFailure.bodyCopy(of: body, limit: limit)
        let data = copy.data
        return NetworkError(
            failure: HTTPFailure(
                request: request,
                response: response,
                body: data,
                isBodyTruncated: copy.truncated,
                serverError: decodeServerError(configuration.errorBodyType, from: data, response: response),
                fieldNames: configuration.fieldNames
            ))
    }

    private func decodeServerError<Body: ServerErrorBody>(_ type: Body.Type, from data: Data, response: HTTPResponse)
        -> Body?
    {
        let contentType = response.headerFields[.contentType]?.lowercased() ?? ""
        let looksLikeJSON = contentType.contains("json") || (contentType.isEmpty && data.first == UInt8(ascii: "{"))
        guard looksLikeJSON, !data.isEmpty else { return nil }
        return try? configuration.decoder.decode(type, from: data)
    }

    /// Takes the credentials off a request the library wrote from a server's answer (a page's
    /// `Link`) when it leaves the origin they were given for, as a redirect would; refuses it
    /// when it would leave https for http.
    private static func withholdCredentials(
        from request: inout HTTPRequest, givenFor origin: Origin, policy: RedirectPolicy
    ) throws {
        guard !origin.contains(request) else { return }
        if origin.scheme == "https", request.scheme?.lowercased() == "http", !policy.allowsInsecureRedirects {
            throw NetworkError.invalidURL(
                RequestSummary(request).url?.absoluteString ?? "(URL)",
                reason: "it leads from https to http, where what the request carries would travel in clear text")
        }
        request.headerFields.removeAll(named: policy.headersRemovedAcrossOrigins)
    }

    /// Every error leaves the client as a ``NetworkError`` that names the request.
    static func normalize(_ error: any Error, request: RequestSummary) -> NetworkError {
        switch error {
        case let error as NetworkError:
            return error.attaching(request)
        case is CancellationError:
            return .cancelled
        default:
            return Task.isCancelled ? .cancelled : .unknown(error)
        }
    }

    /// SplitMix64 over a counter seeded at random once: ids never repeat within the process and
    /// differ between processes, without a system call for randomness on every call. They tie log
    /// lines together; nothing relies on them being secret.
    private static let requestIDState = LockedState(UInt64.random(in: 0...UInt64.max))

    private static func makeRequestID() -> String {
        var value = requestIDState.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        // Written in place: one allocation, where padding a radix-16 string took three.
        return LowercaseHex.string(of: value)
    }
}
