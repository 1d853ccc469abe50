/// Per-endpoint retry settings, carried in ``RequestOptions``.
extension RequestOptions {
    private enum RetryPolicyKey: RequestOptionKey {
        static let defaultValue: RetryPolicy? = nil
    }

    private enum IdempotentKey: RequestOptionKey {
        static let defaultValue = false
    }

    /// This endpoint's retry policy, when it follows other rules than the ``RetryMiddleware``'s:
    /// ``RetryPolicy/disabled`` for a request that must never be sent twice, or a policy of its
    /// own. Until an endpoint sets one it reads as ``RetryPolicy/default``, so that
    /// `options.retryPolicy.maxAttempts = 5` starts from the default policy. Not optional, so
    /// that `.none` cannot mean "not set".
    public var retryPolicy: RetryPolicy {
        get { retryPolicyOverride ?? .default }
        set { self[RetryPolicyKey.self] = newValue }
    }

    /// The endpoint's own retry policy, or `nil` for the middleware's.
    package var retryPolicyOverride: RetryPolicy? { self[RetryPolicyKey.self] }

    /// Whether the endpoint is safe to repeat although its method is not idempotent (a POST the
    /// server de-duplicates, say), so that it may be retried.
    public var isIdempotent: Bool {
        get { self[IdempotentKey.self] }
        set { self[IdempotentKey.self] = newValue }
    }
}
