public import HTTPTypes
import Logging
public import Metrics

/// Sends a request again after a transient failure: with backoff and jitter, honouring
/// `Retry-After`, within a ``RetryBudget`` shared by the client's calls, and never past the call's
/// deadline.
///
/// ```swift
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: url,
///     middlewares: [RetryMiddleware(policy: .default)]
/// ))
/// ```
///
/// What is retried is ``RetryPolicy``'s to say; an endpoint can bring its own policy with
/// ``RequestOptions/retryPolicy``. Each attempt runs the rest of the chain with
/// ``RequestContext/attempt`` one higher. Waits run on the injected clock and jitter draws from
/// the injected random source, so tests are exact; cancelling the task ends a wait at once.
///
/// Given the client's ``CircuitBreaker``, it never waits for an attempt the circuit would refuse:
/// the call ends with the last outcome at once, no token of the budget spent. A call the breaker
/// refused (``NetworkError/circuitOpen(_:)``) is never retried.
public struct RetryMiddleware: Middleware {
    /// The policy for endpoints that do not bring their own.
    public let policy: RetryPolicy
    /// The budget that bounds this client's retries, or `nil` for none.
    public let budget: RetryBudget?
    /// The breaker asked before each retry, or `nil`.
    public let circuitBreaker: CircuitBreaker?
    private let clock: any Clock<Duration>
    private let random: @Sendable () -> Double
    /// `networkingkit_retries_total`: every retry made, across the client's calls.
    private let retries: Counter

    /// Creates a retry middleware.
    /// - Parameters:
    ///   - policy: The default policy.
    ///   - budget: The retry budget; share one instance between clients to bound them together.
    ///   - clock: The clock that waits run on.
    ///   - random: A source of values in `0..<1` for jitter.
    ///   - circuitBreaker: The client's circuit breaker, asked before each retry whether it
    ///     would let the attempt through.
    ///   - metricsFactory: Where `networkingkit_retries_total` is counted; `nil` uses
    ///     `MetricsSystem.factory` (a no-op until a backend is bootstrapped).
    public init(
        policy: RetryPolicy = .default,
        budget: RetryBudget? = RetryBudget(),
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        circuitBreaker: CircuitBreaker? = nil,
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.circuitBreaker = circuitBreaker
        self.retries = Counter(label: "networkingkit_retries_total", factory: metricsFactory ?? MetricsSystem.factory)
        self.policy = policy
        self.budget = budget
        self.clock = clock
        self.random = random
    }

    /// Runs the rest of the chain, again while the answer is retryable and the rules allow.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        // A WebSocket upgrade is not retried: a connection that opens is not an answer to repeat.
        if context.plan.webSocket != nil { return try await next(request, body, context) }
        let policy = context.options.retryPolicyOverride ?? self.policy
        let mayRepeat = policy.allowsRetry(of: request, options: context.options) && (body?.isReplayable ?? true)
        // Counted by the loop, not read from `context.attempt`, which outer middlewares (an
        // authentication replay) may already have raised.
        return try await RetryLoop.run(
            policy: policy, clock: clock, random: random,
            attempt: { number in
                var attemptContext = context
                attemptContext.attempt += number - 1
                return try await next(request, body, attemptContext)
            },
            decision: { outcome in
                let response: HTTPResponse
                switch outcome {
                case .success(let answer): response = answer.response
                case .failure(let error): return policy.decision(for: error)
                }
                let code = response.status.code
                let decision = policy.decision(status: code, headers: response.headerFields)
                // Only an answer that needed no retry earns the budget back; a rate limit that
                // failed fast (Retry-After over the cap) does not.
                if decision == .stop, !policy.retryableStatuses.contains(code) {
                    budget?.recordSuccess()
                }
                return decision
            },
            mayRetry: { outcome, number, delay in
                guard mayRepeat, !exceedsDeadline(delay, context: context) else { return false }
                // Asked before the budget: an attempt the circuit would refuse costs no token.
                if let circuitBreaker, !circuitBreaker.admits(request, context: context, after: delay) {
                    context.logger.debug("Not retrying: the circuit would refuse the attempt", metadata: ["attempt": "\(number)"])
                    return false
                }
                guard budget?.withdrawForRetry() ?? true else { return false }
                if case .success(let abandoned) = outcome {
                    await HTTPBody.discard(abandoned.body)
                }
                context.logger.debug(
                    "Retrying request",
                    metadata: [
                        "attempt": "\(number)", "delay-ms": "\(Int(delay.timeInterval * 1000))",
                        "reason": "\(Self.reason(for: outcome))",
                    ])
                retries.increment()
                return true
            })
    }

    /// Whether waiting `delay` would end after the call's deadline, so the retry could not finish.
    private func exceedsDeadline(_ delay: Duration, context: RequestContext) -> Bool {
        guard let deadline = context.deadline else { return false }
        return delay >= deadline.remaining
    }

    private static func reason(for outcome: Result<HTTPAnswer, any Error>) -> String {
        switch outcome {
        case .success(let answer): "status \(answer.response.status.code)"
        case .failure(let error): "\(error)"
        }
    }
}
