public import Logging

/// What a middleware and the transport know about a call besides its request and body.
public struct RequestContext: Sendable {
    /// The endpoint's options as it wrote them: the middlewares' own settings
    /// (``RequestOptionKey``). What the call gets (its timeout, size limit, redirect policy) is
    /// in ``plan``.
    public var options: RequestOptions
    /// What the client decided for this call: its timeout, size limit and redirect policy.
    public internal(set) var plan: CallPlan
    /// The attempt number, starting at 1; a middleware that sends a request again increments it.
    public var attempt: Int
    /// An identifier for the logical call, shared by all its attempts.
    public let requestID: String
    /// The logger for this call; its metadata carries the request id.
    public var logger: Logger
    /// When the whole call must be over (all attempts, refreshes and waits), or `nil` for no limit;
    /// a middleware that would wait past it stops instead.
    public var deadline: CallDeadline?
    /// Where ``operationName`` comes from.
    var operation = OperationName.none
    /// The origin of the client's base URL, where the client's credentials go; `nil` when the
    /// client has no base URL (or the context was made by hand). Shared, not copied: a context
    /// is copied at every step of the chain.
    var clientOrigin: SharedOrigin?
    /// What the redirect step does for a middleware on each hop (the cookie jar's work), if any.
    var networkLevelStep: (any NetworkLevelStep)?

    /// The name of the operation this call performs, for metrics dimensions, span names and log
    /// metadata: the endpoint's or request's ``RequestOptions/operationName``, or an endpoint
    /// enum's case name (`filmDetail`); `nil` for a typed ``Request`` without one. Worked out
    /// each time it is read, so a call nobody names costs nothing.
    public var operationName: String? { operation.name }

    /// Creates a context, for a middleware or transport used without a client (in a test, say).
    /// - Parameters:
    ///   - options: The options for the request.
    ///   - plan: What the call gets; by default, `options` over the defaults of a client.
    ///   - attempt: The attempt number, starting at 1.
    ///   - requestID: The identifier of the logical call.
    ///   - logger: The logger to use.
    ///   - deadline: When the whole call must be over, if ever.
    public init(
        options: RequestOptions, plan: CallPlan? = nil, attempt: Int = 1, requestID: String, logger: Logger,
        deadline: CallDeadline? = nil
    ) {
        self.options = options
        self.plan = plan ?? CallPlan(resolving: options, streamsResponseBody: false)
        self.attempt = attempt
        self.requestID = requestID
        self.logger = logger
        self.deadline = deadline
    }
}
