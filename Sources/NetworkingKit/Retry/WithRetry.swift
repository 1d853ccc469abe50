/// Runs `operation`, and again after a retryable failure, by `policy`: the seeds' free function,
/// for retrying at the call site (a whole service method, say) rather than in the middleware chain.
///
/// ```swift
/// let films = try await withRetry(policy: .default) {
///     try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
/// }
/// ```
///
/// It uses the same rules as ``RetryMiddleware`` for errors (transient transport failures,
/// timeouts, 408/429/5xx with `Retry-After`), except the method check: the caller knows whether
/// its operation is safe to repeat. Cancellation is never retried.
/// - Parameters:
///   - policy: When to retry and how long to wait.
///   - clock: The clock that waits run on.
///   - random: A source of values in `0..<1` for jitter.
///   - operation: The work to run.
public func withRetry<T: Sendable>(
    policy: RetryPolicy = .default,
    clock: any Clock<Duration> = ContinuousClock(),
    random: @Sendable () -> Double = { Double.random(in: 0..<1) },
    operation: @Sendable () async throws -> T
) async throws -> T {
    try await RetryLoop.run(
        policy: policy, clock: clock, random: random,
        attempt: { _ in try await operation() },
        decision: { outcome in
            guard case .failure(let error) = outcome else { return .stop }
            return policy.decision(for: error)
        },
        mayRetry: { _, _, _ in true })
}

/// Runs `operation` up to `maxAttempts` times with the default delays: seed 000's spelling.
public func withRetry<T: Sendable>(
    maxAttempts: Int,
    operation: @Sendable () async throws -> T
) async throws -> T {
    var policy = RetryPolicy.default
    policy.maxAttempts = max(1, maxAttempts)
    return try await withRetry(policy: policy, operation: operation)
}
