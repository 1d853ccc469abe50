public import Foundation
public import HTTPTypes
@_spi(Transport) public import NetworkingKit

/// A transport that answers from a closure instead of the network, and records every request it
/// is given, body included.
///
/// ```swift
/// let transport = StubTransport { request in
///     switch request.path {
///     case "/films": try .json([PixarFilm.toyStory])
///     default: .status(.notFound)
///     }
/// }
/// let client = LiveAPIClient(baseURL: URL(string: "https://api.test")!, transport: transport)
/// _ = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
/// #expect(transport.requests.map(\.path) == ["/films"])
/// ```
public final class StubTransport: HTTPTransport {
    /// Produces the answer to one recorded request.
    public typealias Handler = @Sendable (RecordedRequest) async throws -> StubResponse

    private let handler: Handler
    private let latency: Duration
    private let clock: any Clock<Duration>
    private let recorded = LockedState<[RecordedRequest]>([])

    /// Creates a transport that answers every request with `handler`.
    public convenience init(_ handler: @escaping Handler) {
        self.init(latency: .zero, clock: ContinuousClock(), handler: handler)
    }

    /// Creates a transport that answers every request with `handler` after `latency` on `clock`
    /// (pass an `ImmediateClock` to record the wait instead of waiting).
    public init(latency: Duration, clock: any Clock<Duration> = ContinuousClock(), handler: @escaping Handler) {
        self.handler = handler
        self.latency = latency
        self.clock = clock
    }

    /// Creates a transport that gives the same answer to every request.
    public convenience init(always response: StubResponse) {
        self.init { _ in response }
    }

    /// Every request sent so far, in order.
    public var requests: [RecordedRequest] {
        recorded.withLock { $0 }
    }

    /// Every request sent so far to `path` (compared with ``RecordedRequest/path``), in order.
    public func requests(to path: String) -> [RecordedRequest] {
        requests.filter { $0.path == path }
    }

    /// Records the request (reading its body), waits for the transport's latency and the answer's
    /// delay, then returns the handler's answer or throws its failure.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let bodyData = try await body?.collect(upTo: Int.max)
        let record = RecordedRequest(request: request, body: bodyData, attempt: context.attempt)
        recorded.withLock { $0.append(record) }
        if latency > .zero {
            try await clock.sleep(for: latency)
        }
        let stub = try await handler(record)
        if let delay = stub.delay {
            try await delay.clock.sleep(for: delay.duration)
        }
        if let failure = stub.failure {
            throw failure
        }
        return (stub.response, stub.body)
    }
}

/// A request as a ``StubTransport`` received it.
public struct RecordedRequest: Sendable {
    /// The request head.
    public let request: HTTPRequest
    /// The request body, read in full; `nil` when there was none.
    public let body: Data?
    /// The attempt number the middleware chain gave it.
    public let attempt: Int

    /// The method.
    public var method: HTTPRequest.Method { request.method }
    /// The full URL.
    public var url: URL? { request.url }
    /// The path without the query, percent-encoded as sent: what a ``StubRoute`` compares. (The
    /// request's own `request.path` is HTTP's request target: the path and the query.)
    public var path: String { url.map { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "" } ?? "" }
    /// The percent-encoded query, if any.
    public var query: String? { url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery } }
    /// The value of a header, by name (case-insensitive).
    public func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { request.headerFields[$0] }
    }
    /// The body as UTF-8 text.
    public var bodyText: String? { body.flatMap { String(data: $0, encoding: .utf8) } }
}

/// The answer a ``StubTransport`` gives.
public struct StubResponse: Sendable {
    /// The response head.
    public var response: HTTPResponse
    /// The body; `nil` for none.
    public var body: HTTPBody?
    /// The error the transport throws instead of answering (see ``failure(_:)``); `nil` to answer.
    public var failure: NetworkError?
    /// How long the transport waits, and on which clock, before answering or failing.
    public var delay: StubDelay?

    /// Creates an answer with a status, headers and a body. A header name that is not a valid
    /// field name stops the test, saying which (it was dropped without a word).
    public init(status: HTTPResponse.Status = .ok, headers: [String: String] = [:], body: HTTPBody? = nil) {
        self.response = HTTPResponse(status: status, headerFields: HTTPFields(scripted: headers))
        self.body = body
    }

    /// An answer with a status and a raw body.
    public static func data(_ data: Data, status: HTTPResponse.Status = .ok, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(status: status, headers: headers, body: HTTPBody(data))
    }

    /// An answer with a status and a text body.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain") -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: HTTPBody(text))
    }

    /// An answer with a raw JSON text body: `.json(#"{"message":"gone"}"#, status: .notFound)`.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(
            status: status, headers: headers.merging(["Content-Type": "application/json"]) { own, _ in own },
            body: HTTPBody(text))
    }

    /// An answer with a value encoded as JSON (snake_case keys, ISO 8601 dates, as the client's
    /// default decoder reads them).
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: [String: String] = [:],
        encoder: JSONEncoder = LiveAPIClient.Configuration.defaultEncoder()
    ) throws -> StubResponse {
        let data = try encoder.encode(value)
        return StubResponse(
            status: status, headers: headers.merging(["Content-Type": "application/json"]) { own, _ in own },
            body: HTTPBody(data))
    }

    /// An answer with only a status.
    public static func status(_ status: HTTPResponse.Status, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(status: status, headers: headers)
    }
}
