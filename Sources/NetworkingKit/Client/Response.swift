public import Foundation
public import HTTPTypes

/// A decoded answer together with the response it came from.
public struct Response<Value> {
    /// The decoded value.
    public var value: Value
    /// The method and URL of the request.
    public let request: RequestSummary
    /// The response head: status and headers.
    public let response: HTTPResponse
    /// The raw body the value was decoded from.
    public let data: Data
    /// From building the request to having decoded the answer.
    public let duration: Duration
    /// Where the answer came from when an ``HTTPCache`` handled the request (``CacheStatus/hit``:
    /// no request was sent); `nil` otherwise. Never read from the response's headers: a CDN's
    /// `X-Cache` stays in ``headerFields`` as sent.
    public let cacheStatus: CacheStatus?
    /// Where the time of the exchange that brought the answer went (connection reused or not,
    /// first and last byte, DNS, connect and TLS where the transport reports them); `nil` for a
    /// cache hit, which sent nothing.
    public var timing: RequestTiming? { timingBox?.timing }
    /// The timing, on the heap: a response passes through several async frames.
    private let timingBox: TimingBox?
    /// The URLs a redirected request visited; `nil` when it was answered where it was sent (its
    /// URL is then made only when asked for: most callers never ask).
    private let redirects: [URL]?

    /// Creates a response.
    /// - Parameters:
    ///   - value: The decoded value.
    ///   - request: The method and URL of the request.
    ///   - response: The response head.
    ///   - data: The raw body.
    ///   - duration: How long the call took.
    ///   - redirectChain: The URLs visited, the first included; empty means the request's own URL
    ///     only.
    ///   - cacheStatus: Where the answer came from, when a cache handled the request.
    ///   - timing: Where the time of the exchange went, when a request was sent.
    public init(
        value: Value, request: RequestSummary, response: HTTPResponse, data: Data, duration: Duration,
        redirectChain: [URL] = [], cacheStatus: CacheStatus? = nil, timing: RequestTiming? = nil
    ) {
        self.init(
            value: value, request: request, response: response, data: data, duration: duration, redirectChain: redirectChain,
            cacheStatus: cacheStatus, timingBox: timing.map(TimingBox.init))
    }

    /// A response whose timing is already on the heap (the answer's).
    init(
        value: Value, request: RequestSummary, response: HTTPResponse, data: Data, duration: Duration,
        redirectChain: [URL], cacheStatus: CacheStatus?, timingBox: TimingBox?
    ) {
        self.cacheStatus = cacheStatus
        self.timingBox = timingBox
        self.value = value
        self.request = request
        self.response = response
        self.data = data
        self.duration = duration
        self.redirects = redirectChain.count > 1 ? redirectChain : nil
    }

    /// The URLs the request visited, in order, the first included: one URL when it was not
    /// redirected, the redirects' targets after it when it was.
    public var redirectChain: [URL] { redirects ?? request.url.map { [$0] } ?? [] }

    /// The URL the answer came from: the request's, or the last redirect's target.
    public var url: URL? { redirects?.last ?? request.url }

    /// Whether the answer came from another URL than the one asked for.
    public var wasRedirected: Bool { redirects != nil }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }

    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }

    /// The same response with its value transformed.
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Response<NewValue> {
        Response<NewValue>(
            value: try transform(value), request: request, response: response, data: data, duration: duration,
            redirectChain: redirects ?? [], cacheStatus: cacheStatus, timingBox: timingBox)
    }
}

extension Response: Sendable where Value: Sendable {}
