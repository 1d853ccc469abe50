/// Per-endpoint retry settings, carried in ``RequestOptions``.
extension RequestOptions {
    private enum RetryPolicyKey: RequestOptionKey {
        static let defaultValue: RetryPolicy? = nil
    }

    private enum IdempotentKey: RequestOptionKey {
        static let defaultValue = false
    }

    /// This endpoint's retry policy, or `nil` for the ``RetryMiddleware``'s own.
    public var retryPolicy: RetryPolicy? {
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
