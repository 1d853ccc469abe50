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
    private let chain: MiddlewareChain
    /// The default headers, validated once here rather than on every request; an invalid one
    /// fails every call with the same error.
    private let defaultFields: Result<HTTPFields, NetworkError>
    /// The base URL taken apart once, for requests relative to it.
    private let parsedBase: ParsedBaseURL?

    /// Creates a client from a configuration.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.chain = MiddlewareChain(middlewares: configuration.middlewares, transport: configuration.transport)
        self.parsedBase = configuration.baseURL.flatMap(ParsedBaseURL.init)
        self.defaultFields = Result {
            var fields = HTTPFields()
            try HeaderValidation.merge(configuration.defaultHeaders, into: &fields)
            return fields
        }.mapError { $0 as? NetworkError ?? .unknown($0) }
    }

    /// Creates a client with the default coders and limits.
    public init(
        baseURL: URL?,
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
        try await perform(RequestTarget(endpoint), as: type)
    }

    /// Sends a typed request and decodes its answer, keeping the response details.
    public func response<T: Decodable & Sendable>(for request: Request<T>) async throws -> Response<T> {
        try await perform(RequestTarget(request), as: T.self)
    }

    private func perform<T: Decodable & Sendable>(_ target: RequestTarget, as type: T.Type) async throws -> Response<T> {
        let start = ContinuousClock.now
        let (request, body) = try target.build(
            with: configuration, parsedBase: parsedBase, defaultFields: defaultFields.get(), accept: ResponseDecoding.accept(for: type))
        let summary = RequestSummary(request)

        // Middlewares and transports see the effective values, not "use the default".
        var options = target.options
        options.timeout = options.timeout ?? configuration.timeout
        let limit = options.maxResponseBodySize ?? configuration.maxResponseBodySize
        options.maxResponseBodySize = limit
        options.redirectPolicy = Self.effectiveRedirectPolicy(options.redirectPolicy, client: configuration.redirectPolicy)
        let callTimeout = options.callTimeout ?? configuration.callTimeout
        options.callTimeout = callTimeout
        let deadline = callTimeout.map { start + $0 }
        let requestID = Self.makeRequestID()
        var logger = configuration.logger
        logger[metadataKey: "request-id"] = "\(requestID)"
        let context = RequestContext(options: options, requestID: requestID, logger: logger, deadline: deadline)

        do {
            try Task.checkCancellation()
            let exchange: @Sendable () async throws -> (HTTPResponse, Data) = { [chain] in
                let (response, responseBody) = try await chain.send(request, body, context)
                guard (200..<300).contains(response.status.code) else {
                    throw try await failure(for: response, body: responseBody, request: summary, limit: limit)
                }
                return (response, try await responseBody?.collect(upTo: limit) ?? Data())
            }
            let (response, data) =
                if let deadline {
                    try await Self.run(exchange, before: deadline, request: summary)
                } else {
                    try await exchange()
                }
            let value = try ResponseDecoding.decode(
                type, from: data, response: response, method: request.method,
                decoder: configuration.decoder, request: summary)
            return Response(
                value: value, request: summary, response: response, data: data, duration: ContinuousClock.now - start)
        } catch {
            throw Self.normalize(error, request: summary)
        }
    }

    /// Runs `operation`, or fails with ``NetworkError/timeout(_:)`` when `deadline` comes first;
    /// the operation is then cancelled, which cancels whatever it was waiting for.
    static func run<Result: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Result,
        before deadline: ContinuousClock.Instant,
        request: RequestSummary
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw NetworkError.timeout(request)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw NetworkError.timeout(request) }
            return first
        }
    }

    /// Reads a bounded copy of a failed response's body and decodes the server's error from it.
    private func failure(for response: HTTPResponse, body: HTTPBody?, request: RequestSummary, limit: Int) async throws
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

    /// An endpoint's policy replaces the client's, except that headers the client declares
    /// sensitive stay sensitive: an endpoint asking for more hops must not leak an API key.
    static func effectiveRedirectPolicy(_ endpoint: RedirectPolicy, client: RedirectPolicy) -> RedirectPolicy {
        guard !endpoint.isInherited else { return client.resolved(against: .default) }
        var policy = endpoint
        policy.sensitiveHeaders.formUnion(client.sensitiveHeaders)
        return policy
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
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
