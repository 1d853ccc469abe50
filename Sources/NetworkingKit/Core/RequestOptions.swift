/// A key for a value stored in ``RequestOptions``: how a middleware gives endpoints a setting of
/// its own (a cache policy, a retry override) without NetworkingKit knowing about it.
///
/// ```swift
/// enum SkipAuthenticationKey: RequestOptionKey {
///     static let defaultValue = false
/// }
/// extension RequestOptions {
///     var skipsAuthentication: Bool {
///         get { self[SkipAuthenticationKey.self] }
///         set { self[SkipAuthenticationKey.self] = newValue }
///     }
/// }
/// ```
public protocol RequestOptionKey {
    /// The type of the stored value.
    associatedtype Value: Sendable
    /// The value used when an endpoint does not set one.
    static var defaultValue: Value { get }
}

/// Per-endpoint settings that travel with a request down the middleware chain.
///
/// The timeout is built in; every other concern adds its own typed option through
/// ``RequestOptionKey``, so endpoints override only what they need.
public struct RequestOptions: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// The longest the transport may wait for the server, or `nil` for the client's default.
    public var timeout: Duration?

    /// The largest response body this request accepts, or `nil` for the client's default.
    public var maxResponseBodySize: Int?

    /// The longest the whole call may take, every retry, refresh and wait included, or `nil` for
    /// the client's default. ``timeout`` bounds each attempt; this bounds them all.
    public var callTimeout: Duration?

    /// Whether a final status other than 2xx fails the call with its ``NetworkError`` (`true`, the
    /// default), or comes back like any other answer: decoded as the call's type (`Data` keeps
    /// it as sent), its whole body read within ``maxResponseBodySize``, where an error keeps the
    /// first ``HTTPFailure/maxBodyCopy`` bytes. For an API whose error answers carry more than
    /// that, or a status the app handles itself; read ``Response/response`` for the status. The
    /// middlewares act on the answer as before (a `401` still refreshes, a `503` is still
    /// retried), and those that read a failed body read it whole for such a call;
    /// de-duplication shares a call only between callers that agree on this. Streamed calls (`bytes`, downloads, events, lines) always check the status:
    /// their readers expect the answer they asked for.
    public var validatesStatus = true

    /// How this request follows redirects, when it follows other rules than the client's:
    /// ``RedirectPolicy/disabled`` to follow none, or a policy of its own, which replaces the
    /// client's except for the client's ``RedirectPolicy/sensitiveHeaders``, always added to the
    /// endpoint's. Until an endpoint sets one it reads as ``RedirectPolicy/default``, so that
    /// `options.redirectPolicy.maxRedirects = 1` starts from the default policy; the call's
    /// policy is ``CallPlan/redirectPolicy``.
    public var redirectPolicy: RedirectPolicy {
        get { redirectPolicyOverride ?? .default }
        set { redirectPolicyOverride = newValue }
    }

    /// The endpoint's own redirect policy, or `nil` for the client's. Not public: on an optional,
    /// `.none` would mean "not set" where an endpoint writing it means "follow none".
    package private(set) var redirectPolicyOverride: RedirectPolicy?

    /// Creates options.
    /// - Parameters:
    ///   - timeout: The timeout, or `nil` for the client's default.
    ///   - maxResponseBodySize: The response size limit, or `nil` for the client's default.
    ///   - callTimeout: The limit for the whole call, or `nil` for the client's default.
    public init(timeout: Duration? = nil, maxResponseBodySize: Int? = nil, callTimeout: Duration? = nil) {
        self.timeout = timeout
        self.callTimeout = callTimeout
        self.maxResponseBodySize = maxResponseBodySize
    }

    /// Creates options with a redirect policy of the endpoint's own.
    /// - Parameters:
    ///   - timeout: The timeout, or `nil` for the client's default.
    ///   - maxResponseBodySize: The response size limit, or `nil` for the client's default.
    ///   - redirectPolicy: The endpoint's redirect policy (not optional: `.none` is not "not set").
    ///   - callTimeout: The limit for the whole call, or `nil` for the client's default.
    public init(
        timeout: Duration? = nil, maxResponseBodySize: Int? = nil, redirectPolicy: RedirectPolicy,
        callTimeout: Duration? = nil
    ) {
        self.init(timeout: timeout, maxResponseBodySize: maxResponseBodySize, callTimeout: callTimeout)
        self.redirectPolicyOverride = redirectPolicy
    }

    /// The value stored for `key`, or its default.
    public subscript<Key: RequestOptionKey>(_ key: Key.Type) -> Key.Value {
        get {
            // Most options are never set: no lookup, and no cast of a value that is not there.
            guard !values.isEmpty, let value = values[ObjectIdentifier(key)] else { return Key.defaultValue }
            return value as? Key.Value ?? Key.defaultValue
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Options for the client's defaults.
    public static var `default`: RequestOptions { RequestOptions() }
}
