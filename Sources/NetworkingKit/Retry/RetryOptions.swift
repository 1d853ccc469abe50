/// Per-endpoint retry settings, carried in ``RequestOptions``.
extension RequestOptions {
    private enum RetryPolicyKey: RequestOptionKey {
        static let defaultValue = RetryPolicy.inherited
    }

    private enum IdempotentKey: RequestOptionKey {
        static let defaultValue = false
    }

    /// This endpoint's retry policy: ``RetryPolicy/inherited`` (the default) for the
    /// ``RetryMiddleware``'s own, ``RetryPolicy/disabled`` for a request that must never be sent
    /// twice, or a policy of its own. Not optional, so that `.none` cannot mean "not set".
    public var retryPolicy: RetryPolicy {
        get { self[RetryPolicyKey.self] }
        set { self[RetryPolicyKey.self] = newValue }
    }

    /// Whether the endpoint is safe to repeat although its method is not idempotent (a POST the
    /// server de-duplicates, say), so that it may be retried.
    public var isIdempotent: Bool {
        get { self[IdempotentKey.self] }
        set { self[IdempotentKey.self] = newValue }
    }
}
