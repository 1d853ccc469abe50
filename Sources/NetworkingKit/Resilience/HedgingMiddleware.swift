public import HTTPTypes
import Logging
public import Metrics

/// Sends a second copy of a slow call, for endpoints that opt in with ``RequestOptions/hedging``:
/// the first answer wins and the other copies are cancelled.
///
/// ```swift
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: url,
///     middlewares: [HedgingMiddleware(budget: RetryBudget())]
/// ))
/// ```
///
/// When the first copy has not answered after the policy's delay (a fixed one, or the
/// endpoint's observed percentile), the next copy is sent, up to ``HedgingPolicy/maxHedges``. An
/// answer that retrying would not change (a 2xx, a 404) wins at once. A failure, an error or an
/// answer a retry could cure (a 503), waits for the copies still on their way, and is the outcome
/// only if they fail too: a copy refused before it was sent never beats one the server is working
/// on. Only calls safe to repeat are hedged (see ``HedgingPolicy``), never a streamed answer, and
/// no copy is sent once the call's deadline is nearer than the delay.
///
/// Hedges stop when the ``RetryBudget`` has no token left (each hedge takes one retry's cost; an
/// answer the first copy alone brought back, neither a 5xx nor a 429, gives back a success's
/// refund) or the ``CircuitBreaker`` given here would refuse the copy. The budget is the
/// middleware's own by default: shared with a ``RetryMiddleware``, which refunds good answers too,
/// each would be refunded twice. Each hedge is counted in `networkingkit_hedges_total` and logged
/// at debug. Waits run on the injected clock.
///
/// Place it after a cache and a ``RequestDeduplicator`` (inside them): a copy merged into the
/// call it hedges, or answered by the cache, helps nothing. Copies are numbered in
/// ``RequestContext/attempt`` one after the other, as retries are.
public struct HedgingMiddleware: Middleware {
    /// The budget each hedge draws on, or `nil` for none.
    public let budget: RetryBudget?
    /// The breaker asked before each hedge, or `nil`.
    public let circuitBreaker: CircuitBreaker?
    private let clock: any Clock<Duration>
    private let watch: DeadlineWatch
    private let latencies = LatencyWindows()
    private let hedges: Counter

    /// Creates a hedging middleware.
    /// - Parameters:
    ///   - budget: The budget hedges draw on: a budget of its own by default; `nil` for none (no
    ///     bound on the extra load when a whole upstream slows down).
    ///   - circuitBreaker: The client's circuit breaker, asked before each hedge.
    ///   - clock: The clock the delays run on.
    ///   - metricsFactory: Where `networkingkit_hedges_total` is counted; `nil` uses
    ///     `MetricsSystem.factory`.
    public init(
        budget: RetryBudget? = RetryBudget(),
        circuitBreaker: CircuitBreaker? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.budget = budget
        self.circuitBreaker = circuitBreaker
        self.clock = clock
        self.watch = DeadlineWatch(clock: clock)
        self.hedges = Counter(label: "networkingkit_hedges_total", factory: metricsFactory ?? MetricsSystem.factory)
    }

    /// Runs the call, hedged when its endpoint asks for it and it is safe to repeat.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        guard let policy = context.options.hedging, policy.maxHedges > 0, context.plan.webSocket == nil,
            !context.plan.streamsResponseBody, RetryPolicy.default.allowsRetry(of: request, options: context.options),
            body?.isReplayable ?? true
        else {
            return try await next(request, body, context)
        }
        let key = context.operationName ?? "\(request.method) \(request.scheme ?? "")://\(request.authority ?? "")\(Self.path(of: request))"
        let delay: Duration =
            switch policy.delay {
            case .fixed(let delay): delay
            case .percentile(let percentile, let fallback): latencies.percentile(percentile, key: key) ?? fallback
            }
        let start = watch.now
        let (result, hedged) = await race(request, body: body, context: context, next: next, delay: max(delay, .zero), policy: policy)
        // What the network answered, and well: a cache hit, a refusal or a 503 says nothing of
        // how long the endpoint takes.
        if case .success(let answer) = result, answer.cacheStatus != .hit, !Self.isCurable(result) {
            latencies.record(watch.now - start, key: key)
            if !hedged { budget?.recordSuccess() }
        }
        return try result.get()
    }

    private enum Event: Sendable {
        case answer(Result<HTTPAnswer, any Error>)
        /// The delay passed (`true`), or its wait was cancelled.
        case timer(fired: Bool)
    }

    /// The copies, started one delay apart, and the answer that wins; whether a hedge was sent.
    private func race(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext, delay: Duration,
        policy: HedgingPolicy
    ) async -> (Result<HTTPAnswer, any Error>, hedged: Bool) {
        let clock = clock
        return await withTaskGroup(of: Event.self) { group in
            var launched = 0
            var running = 0
            func launch() {
                var copyContext = context
                copyContext.attempt += launched
                launched += 1
                running += 1
                group.addTask {
                    do {
                        return .answer(.success(try await next(request, body, copyContext)))
                    } catch {
                        return .answer(.failure(error))
                    }
                }
            }
            func arm() {
                group.addTask {
                    do {
                        try await clock.sleep(for: delay)
                        return .timer(fired: true)
                    } catch {
                        return .timer(fired: false)
                    }
                }
            }
            launch()
            arm()
            var kept: Result<HTTPAnswer, any Error>?
            while let event = await group.next() {
                switch event {
                case .timer(let fired):
                    guard fired, running > 0, launched <= policy.maxHedges, mayHedge(request, context: context, delay: delay) else {
                        continue
                    }
                    context.logger.debug(
                        "Hedging request", metadata: ["hedge": "\(launched)", "after-ms": "\(Int(delay.timeInterval * 1000))"])
                    hedges.increment()
                    launch()
                    if launched <= policy.maxHedges { arm() }
                case .answer(let result):
                    running -= 1
                    // An error, or an answer a retry could cure, waits for the copies still on their way.
                    if running > 0, Self.isCurable(result) || (try? result.get()) == nil {
                        if case .success(let superseded)? = kept { Self.drop(superseded) }
                        kept = result
                        continue
                    }
                    // The last copy failed before the server answered it: an answer kept from
                    // another copy (a 503) says more than a local failure.
                    var outcome = result
                    if case .failure = result, case .success? = kept, let answer = kept {
                        outcome = answer
                    } else if case .success(let superseded)? = kept {
                        Self.drop(superseded)
                    }
                    group.cancelAll()
                    for await rest in group {
                        if case .answer(.success(let abandoned)) = rest { Self.drop(abandoned) }
                    }
                    return (outcome, launched > 1)
                }
            }
            // Every copy has answered above: the loop returns with the last.
            return (kept ?? .failure(NetworkError.cancelled), launched > 1)
        }
    }

    /// Whether another copy may go: the deadline leaves it another delay, the circuit would let
    /// it through, and the budget pays for it.
    private func mayHedge(_ request: HTTPRequest, context: RequestContext, delay: Duration) -> Bool {
        if let deadline = context.deadline, deadline.remaining <= delay { return false }
        guard circuitBreaker?.admits(request, context: context, after: .zero) ?? true else { return false }
        return budget?.withdrawForRetry() ?? true
    }

    /// A losing copy's answer, its body given back to its transport without the winner waiting.
    private static func drop(_ answer: HTTPAnswer) {
        guard let body = answer.body else { return }
        Task { await HTTPBody.discard(body) }
    }

    /// A 5xx or 429 answer, a lost connection or a timeout: what another copy might do better.
    private static func isCurable(_ result: Result<HTTPAnswer, any Error>) -> Bool {
        switch result {
        case .success(let answer): RetryPolicy.default.retryableStatuses.contains(answer.response.status.code)
        case .failure(let error): RetryPolicy.default.decision(for: error) != .stop
        }
    }

    /// The request's path without its query: the latency key's last part.
    private static func path(of request: HTTPRequest) -> Substring {
        let path = request.path ?? ""
        return path[..<(path.firstIndex(of: "?") ?? path.endIndex)]
    }
}
