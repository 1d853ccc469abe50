public import Foundation
public import HTTPTypes

/// A response whose body is read as it arrives: the answer of ``APIClient/bytes(_:)``.
///
/// ```swift
/// let answer = try await client.bytes(Request<Data>(path: "/ndjson"))
/// var size = 0
/// for try await chunk in answer.body {
///     size += chunk.count
/// }
/// ```
///
/// The body can be read once. Errors while reading it are ``NetworkError``s naming the request: a
/// connection cut midway is ``NetworkError/transport(_:)`` with ``TransportFailure/Kind/truncatedBody``.
public struct StreamedResponse: Sendable {
    /// The method and URL of the request.
    public let request: RequestSummary
    /// The response head: status and headers.
    public let response: HTTPResponse
    /// The body, a stream of chunks; empty when the response has none.
    public let body: HTTPBody
    /// Where the answer came from when an ``HTTPCache`` handled the request; `nil` otherwise.
    public let cacheStatus: CacheStatus?
    /// Where the time of the exchange went up to the response head (see ``Response/timing``);
    /// its ``RequestTiming/lastByte`` is `nil`: the body is read after the call returns.
    public var timing: RequestTiming? { timingBox?.timing }
    /// The timing, on the heap: a response passes through several async frames.
    private let timingBox: TimingBox?
    /// The URLs a redirected request visited; `nil` when it was answered where it was sent.
    private let redirects: [URL]?

    /// Creates a streamed response.
    /// - Parameters:
    ///   - request: The method and URL of the request.
    ///   - response: The response head.
    ///   - body: The body, still to be read.
    ///   - redirectChain: The URLs visited, the first included; empty means the request's own URL
    ///     only.
    ///   - cacheStatus: Where the answer came from, when a cache handled the request.
    ///   - timing: Where the time of the exchange went, when a request was sent.
    public init(
        request: RequestSummary, response: HTTPResponse, body: HTTPBody, redirectChain: [URL] = [],
        cacheStatus: CacheStatus? = nil, timing: RequestTiming? = nil
    ) {
        self.init(
            request: request, response: response, body: body, redirectChain: redirectChain, cacheStatus: cacheStatus,
            timingBox: timing.map(TimingBox.init))
    }

    /// A response whose timing is already on the heap (the answer's).
    init(
        request: RequestSummary, response: HTTPResponse, body: HTTPBody, redirectChain: [URL], cacheStatus: CacheStatus?,
        timingBox: TimingBox?
    ) {
        self.timingBox = timingBox
        self.request = request
        self.response = response
        self.body = body
        self.redirects = redirectChain.count > 1 ? redirectChain : nil
        self.cacheStatus = cacheStatus
    }

    /// The URLs the request visited, in order, the first included (see ``Response/redirectChain``).
    public var redirectChain: [URL] { redirects ?? request.url.map { [$0] } ?? [] }

    /// The URL the answer came from: the request's, or the last redirect's target.
    public var url: URL? { redirects?.last ?? request.url }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }

    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }

    /// The body a caller reads: errors named after the request, and the size limit when one was
    /// asked for.
    static func body(_ body: HTTPBody?, limit: Int?, request: RequestSummary) -> HTTPBody {
        guard let body else { return HTTPBody(Data()) }
        return body.checked(limit: limit, request: request) { LiveAPIClient.normalize($0, request: request) }
    }
}
