public import Foundation
public import HTTPTypes

/// A response on its way back up the middleware chain, with what happened to its request on the
/// way down: the redirects it followed, whether a cache answered it, and where the time went.
///
/// These facts travel with the answer, not beside it, so that an answer shared between callers
/// (``RequestDeduplicator``) or kept for later (``HTTPCache``) carries its own, and a server's
/// headers reach the caller as the server sent them.
///
/// ```swift
/// struct TimingMiddleware: Middleware {
///     func intercept(
///         _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
///     ) async throws -> HTTPAnswer {
///         let start = ContinuousClock.now
///         var answer = try await next(request, body, context)
///         answer.response.headerFields[HTTPField.Name("X-Client-Duration")!] = "\(ContinuousClock.now - start)"
///         return answer
///     }
/// }
/// ```
public struct HTTPAnswer: Sendable {
    /// The response head: status and headers, as the server sent them (a middleware may change them).
    public var response: HTTPResponse
    /// The response body, still to be read; `nil` when the response has none.
    public var body: HTTPBody?
    /// Where the answer came from when ``HTTPCache`` handled the request; `nil` otherwise.
    public var cacheStatus: CacheStatus?
    /// The URLs a redirected request visited, in order, the first included; empty when the
    /// request was answered where it was sent.
    public var redirects: [URL]
    /// Where the time of the exchange that brought this answer went, as its transport reported
    /// it; `nil` when no request was sent (a cache hit) or the answer was made by hand.
    public var timing: RequestTiming? {
        get { timingBox?.timing }
        set {
            guard let newValue else { return timingBox = nil }
            // The last byte is dated on the box the exchange made, when no one shares it.
            if isKnownUniquelyReferenced(&timingBox), let box = timingBox {
                box.timing = newValue
            } else {
                timingBox = TimingBox(newValue)
            }
        }
    }
    /// The timing, on the heap: see `TimingBox`.
    var timingBox: TimingBox?
    /// The WebSocket connection an upgrade opened: see ``webSocket``.
    var webSocketBox: WebSocketBox?

    /// Creates an answer.
    /// - Parameters:
    ///   - response: The response head.
    ///   - body: The response body, if any.
    ///   - cacheStatus: Where the answer came from, when a cache handled it.
    ///   - redirects: The URLs a redirected request visited, the first included; empty when it was
    ///     not redirected.
    public init(
        _ response: HTTPResponse, body: HTTPBody? = nil, cacheStatus: CacheStatus? = nil, redirects: [URL] = []
    ) {
        self.response = response
        self.body = body
        self.cacheStatus = cacheStatus
        self.redirects = redirects
    }

    /// Whether the answer came from another URL than the one asked for.
    public var wasRedirected: Bool { !redirects.isEmpty }
}
