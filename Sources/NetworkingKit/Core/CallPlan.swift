package import Foundation
/// What the client decided for one call before sending it, once: how long each attempt may wait,
/// how large an answer may be, which redirects are followed, and whether the answer is read as a
/// stream. Every middleware and the transport read it from ``RequestContext/plan``; none falls
/// back to a default of its own, so that one call never has two limits.
///
/// An endpoint's ``RequestOptions`` say what it wants (`nil`: the client's); the plan says what
/// the call gets, with no "not set" left in it.
public struct CallPlan: Sendable, Hashable {
    /// How long the transport may wait for the server in one attempt, its redirects included:
    /// for the whole answer, or, when ``streamsResponseBody``, for the response head and then
    /// for each next part of the body.
    public package(set) var timeout: Duration
    /// The largest response body the call accepts, or `nil` for none: a streamed answer whose
    /// endpoint set no limit may be as long as it lasts.
    public let responseBodyLimit: Int?
    /// The redirect policy: the endpoint's (with the client's ``RedirectPolicy/sensitiveHeaders``
    /// added), or the client's.
    public let redirectPolicy: RedirectPolicy
    /// Whether the caller reads the response body as a stream for as long as it lasts
    /// (``LiveAPIClient/bytes(_:)``, ``APIClient/download(_:to:resumable:progress:)``, event
    /// streams). Middlewares never hold such a body whole: de-duplication steps aside, the cache
    /// does not store it, a ``ResponseInterceptor`` does not see it.
    public let streamsResponseBody: Bool
    /// Whether an answer whose status is not 2xx fails the call (the default), or reaches the
    /// caller as an answer, its body whole (``RequestOptions/validatesStatus``; a streamed call
    /// always checks). A middleware that reads a failed answer's body into memory reads all of it
    /// within ``responseBodyLimit`` for such a call, so that the caller gets what it asked for.
    public let validatesStatus: Bool
    /// The WebSocket connection's options when the call opens one
    /// (``LiveAPIClient/webSocket(_:options:)``); `nil` for every other call. Such a call is a
    /// `GET` that a ``WebSocketTransport`` upgrades: the cache, de-duplication and retries step
    /// aside, and its answer is a `101` carrying the connection (``HTTPAnswer/webSocket``), or
    /// the server's refusal.
    public package(set) var webSocket: WebSocketOptions?

    /// The timeout when neither the endpoint nor the client sets one: 60 seconds.
    public static let defaultTimeout: Duration = .seconds(60)
    /// The response size limit when neither the endpoint nor the client sets one: 32 MiB.
    public static let defaultResponseBodyLimit = 32 * 1024 * 1024

    /// Creates a plan from decided values.
    /// - Parameters:
    ///   - timeout: How long each attempt may wait for the server.
    ///   - responseBodyLimit: The largest response body accepted, or `nil` for none.
    ///   - redirectPolicy: How redirects are followed.
    ///   - streamsResponseBody: Whether the answer is read as a stream.
    public init(
        timeout: Duration = CallPlan.defaultTimeout, responseBodyLimit: Int? = CallPlan.defaultResponseBodyLimit,
        redirectPolicy: RedirectPolicy = .default, streamsResponseBody: Bool = false
    ) {
        self.init(
            timeout: timeout, responseBodyLimit: responseBodyLimit, redirectPolicy: redirectPolicy,
            streamsResponseBody: streamsResponseBody, validatesStatus: true)
    }

    /// Creates a plan from decided values, saying whether a status other than 2xx fails the call.
    /// - Parameters:
    ///   - timeout: How long each attempt may wait for the server.
    ///   - responseBodyLimit: The largest response body accepted, or `nil` for none.
    ///   - redirectPolicy: How redirects are followed.
    ///   - streamsResponseBody: Whether the answer is read as a stream.
    ///   - validatesStatus: Whether a status other than 2xx fails the call.
    public init(
        timeout: Duration = CallPlan.defaultTimeout, responseBodyLimit: Int? = CallPlan.defaultResponseBodyLimit,
        redirectPolicy: RedirectPolicy = .default, streamsResponseBody: Bool = false, validatesStatus: Bool
    ) {
        self.timeout = timeout
        self.responseBodyLimit = responseBodyLimit
        self.redirectPolicy = redirectPolicy
        self.streamsResponseBody = streamsResponseBody
        self.validatesStatus = validatesStatus
    }

    /// The plan for an endpoint's `options` on a client with these settings: what the endpoint
    /// sets wins, except that headers the client declares sensitive stay sensitive (an endpoint
    /// asking for more hops must not leak an API key). A streamed answer has no size limit unless
    /// the endpoint sets one.
    /// - Parameters:
    ///   - options: The endpoint's options.
    ///   - timeout: The client's timeout.
    ///   - responseBodyLimit: The client's response size limit.
    ///   - redirectPolicy: The client's redirect policy.
    ///   - streamsResponseBody: Whether the caller reads the answer as a stream.
    public init(
        resolving options: RequestOptions, timeout: Duration = CallPlan.defaultTimeout,
        responseBodyLimit: Int = CallPlan.defaultResponseBodyLimit, redirectPolicy: RedirectPolicy = .default,
        streamsResponseBody: Bool
    ) {
        var redirects = redirectPolicy
        if let own = options.redirectPolicyOverride {
            redirects = own
            redirects.sensitiveHeaders.formUnion(redirectPolicy.sensitiveHeaders)
        }
        self.init(
            timeout: options.timeout ?? timeout,
            responseBodyLimit: options.maxResponseBodySize ?? (streamsResponseBody ? nil : responseBodyLimit),
            redirectPolicy: redirects, streamsResponseBody: streamsResponseBody,
            validatesStatus: streamsResponseBody || options.validatesStatus)
    }

    /// A failed answer's body (a status other than 2xx) read into memory as far as the caller
    /// will see it: whole within ``responseBodyLimit`` when the call takes such answers
    /// (``validatesStatus`` `false`); otherwise the bounded copy an error keeps
    /// (``HTTPFailure/maxBodyCopy``) and one byte more, so that the client still sees it was cut,
    /// and never a failure for its size.
    package func failedBody(_ body: HTTPBody?) async throws -> Data? {
        guard let body else { return nil }
        let limit = responseBodyLimit ?? .max
        guard validatesStatus else { return try await body.collect(upTo: limit) }
        return try await body.prefix(upTo: min(limit, HTTPFailure.maxBodyCopy) + 1).data
    }
}
