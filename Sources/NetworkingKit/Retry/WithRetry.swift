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
    var previousDelay = policy.baseDelay
    var attempt = 1
    while true {
        do {
            return try await operation()
        } catch {
            if error is CancellationError || Task.isCancelled { throw error }
            guard attempt < policy.maxAttempts, case .retry(let serverDelay) = policy.decision(for: error) else {
                throw error
            }
            let delay = serverDelay ?? policy.delay(forRetry: attempt, previous: previousDelay, random: random)
            try await clock.sleep(for: delay)
            previousDelay = delay
            attempt += 1
        }
    }
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
