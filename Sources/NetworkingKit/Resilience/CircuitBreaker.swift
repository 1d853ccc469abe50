public import HTTPTypes
import Logging
public import Metrics

/// Stops calling a service that keeps failing, so that it can recover and the app's calls fail at
/// once instead of piling up on timeouts: a circuit per host (or per a ``Key`` of the app's).
///
/// ```swift
/// let breaker = CircuitBreaker()
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: url,
///     middlewares: [RetryMiddleware(circuitBreaker: breaker), breaker]
/// ))
/// ```
///
/// A circuit is **closed** while calls go well. When at least half of at least 20 calls within
/// the last 30 seconds failed (``Policy``), it **opens**: for 5 seconds every call fails at once
/// with ``NetworkError/circuitOpen(_:)``, and no byte is sent. Then it is **half-open**: up to 3
/// probe calls go through, the others are refused; one failed probe opens it again, 3 successful
/// ones close it (a probe unanswered after the open time gives its place to another). What counts
/// as a failure is ``Policy/classify``'s to say: by default a transport failure, a timeout (the
/// call's own deadline included), a 5xx or a 429, and a call slower than
/// ``Policy/slowCallThreshold`` when one is set; never another 4xx, and a call the caller cancelled
/// is not counted at all.
///
/// A call is counted when its response head arrives: a body that fails or stalls after it counts
/// as the head did (put a ``Policy/slowCallThreshold`` and the call's timeout on such endpoints).
///
/// Placed after ``RetryMiddleware`` (inside it), each attempt counts; given to the retry
/// middleware too (`RetryMiddleware(circuitBreaker:)`), the retries stop, without waiting and
/// without spending the ``RetryBudget``, when the circuit would refuse the next attempt.
///
/// Each change of state is logged (warning when a circuit opens, info otherwise) and
/// `networkingkit_circuit_state` (a gauge per key: 0 closed, 1 half-open, 2 open) follows it, as
/// the calls that see it happen (an open circuit turns half-open when a call arrives after its time);
/// `networkingkit_circuit_refusals_total` counts refused calls per key. Times run on the injected
/// clock, so a test drives every transition without waiting.
public final class CircuitBreaker: Middleware, Sendable {
    /// The state of one circuit.
    public enum State: String, Sendable, Hashable, CustomStringConvertible {
        /// Calls go through.
        case closed
        /// Calls are refused.
        case open
        /// A few probe calls go through to test the service.
        case halfOpen = "half-open"

        /// `closed`, `open` or `half-open`.
        public var description: String { rawValue }
    }

    /// How a call's outcome counts.
    public enum Verdict: Sendable, Hashable {
        /// The service answered as a healthy one does (a 2xx, a 3xx, a 4xx other than 429).
        case success
        /// The service is failing: the call counts against it.
        case failure
        /// Not counted either way (a cancelled call).
        case ignored
    }

    /// When a circuit opens, how long it stays open, and how it closes again.
    ///
    /// The defaults follow resilience4j's and Polly's: a failure rate, not a count, so a busy
    /// client and a quiet one trip alike; a minimum of calls, so that 2 failures out of 3 do not
    /// cut a service off; a window of recent time, so that old failures are forgotten; a short
    /// open time, so that a service back on its feet is used again within seconds; a few probes,
    /// so that one lucky call does not let the whole load back onto a service still failing.
    public struct Policy: Sendable {
        /// The share of failed calls in the window that opens the circuit: 0.5 by default.
        public var failureRateThreshold: Double
        /// The fewest calls in the window before its failure rate counts: 20 by default.
        public var minimumCalls: Int
        /// How far back the window reaches: 30 seconds by default.
        public var window: Duration
        /// How long an open circuit refuses calls before it lets probes through: 5 seconds.
        public var openDuration: Duration
        /// How many probes a half-open circuit lets through, and how many must succeed to close
        /// it: 3 by default.
        public var halfOpenProbes: Int
        /// A call slower than this counts as a failure, however it ended; `nil` (the default)
        /// never.
        public var slowCallThreshold: Duration?
        /// How an outcome counts: a response (as the rest of the chain returned it), or an error.
        public var classify: @Sendable (Result<HTTPResponse, any Error>) -> Verdict

        /// Creates a policy.
        public init(
            failureRateThreshold: Double = 0.5,
            minimumCalls: Int = 20,
            window: Duration = .seconds(30),
            openDuration: Duration = .seconds(5),
            halfOpenProbes: Int = 3,
            slowCallThreshold: Duration? = nil,
            classify: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Verdict = Policy.defaultClassification
        ) {
            self.failureRateThreshold = failureRateThreshold.isFinite ? min(max(failureRateThreshold, 0), 1) : 0.5
            self.minimumCalls = max(1, minimumCalls)
            self.window = max(window, .milliseconds(1))
            self.openDuration = max(openDuration, .zero)
            self.halfOpenProbes = max(1, halfOpenProbes)
            self.slowCallThreshold = slowCallThreshold
            self.classify = classify
        }

        /// The defaults: 50 % of at least 20 calls in 30 s opens for 5 s, then 3 probes.
        public static let `default` = Policy()

        /// Failures: transport failures, timeouts, 5xx and 429 answers (returned or thrown), and
        /// a WebSocket connection lost while it opened. Ignored: cancellation, a refusal by another
        /// breaker, what never reached the server (a request that could not be built, a file that
        /// could not be read), and errors of the app's own. Everything else says the service
        /// answered, and is a success: a 404, an answer that would not decode, a redirect refused.
        /// Foundation's URL errors count as the transport failures they stand for.
        public static func defaultClassification(_ outcome: Result<HTTPResponse, any Error>) -> Verdict {
            switch outcome {
            case .success(let response):
                return isFailing(response.status.code) ? .failure : .success
            case .failure(is CancellationError):
                return .ignored
            case .failure(let error):
                guard let error = RetryPolicy.networkError(from: error) else { return .ignored }
                switch error {
                case .transport, .timeout: return .failure
                case .webSocket(let failure): return failure.kind == .connectionLost ? .failure : .success
                case .cancelled, .circuitOpen, .invalidURL, .invalidRequest, .encodingFailed, .bodyNotReplayable, .fileFailed, .unknown:
                    return .ignored
                default: return error.statusCode.map { isFailing($0) ? .failure : .success } ?? .success
                }
            }
        }

        private static func isFailing(_ status: Int) -> Bool {
            status >= 500 || status == 429
        }
    }

    /// What a call's circuit is: by default its origin, so that one failing host does not cut off
    /// the others.
    public struct Key: Sendable {
        let make: @Sendable (HTTPRequest, RequestContext) -> String

        /// A key of the app's own, from the request and its context.
        public static func custom(_ make: @escaping @Sendable (HTTPRequest, RequestContext) -> String) -> Key {
            Key(make: make)
        }

        /// The request's scheme and authority: `https://api.example.com`.
        public static let host = Key { request, _ in
            "\(request.scheme ?? "")://\((request.authority ?? "").lowercased())"
        }

        /// The call's operation name (``RequestContext/operationName``), with its host; the host
        /// alone for calls without one.
        public static let operation = Key { request, context in
            let host = Key.host.make(request, context)
            return context.operationName.map { "\(host) \($0)" } ?? host
        }
    }

    /// The policy every circuit follows.
    public let policy: Policy
    private let key: Key
    private let watch: DeadlineWatch
    private let table = LockedState(Table())
    private let metricsFactory: any MetricsFactory

    private struct Table {
        var circuits: [String: CircuitState] = [:]
        var nextID: UInt64 = 0
        /// When a full table may next be swept of its idle circuits.
        var nextSweep = Duration.zero
    }

    /// How many circuits are kept at most; past it, closed circuits with an empty window are
    /// forgotten (at most once per tenth of the window), and a call whose key finds no room goes
    /// through uncounted.
    public static let maximumCircuits = 10_000

    /// Creates a breaker.
    /// - Parameters:
    ///   - policy: When circuits open and close.
    ///   - key: What a call's circuit is; the host by default.
    ///   - clock: The clock the window and the open time run on.
    ///   - metricsFactory: Where the gauge and the counter are kept; `nil` uses
    ///     `MetricsSystem.factory` (a no-op until a backend is bootstrapped).
    public init(
        policy: Policy = .default,
        key: Key = .host,
        clock: any Clock<Duration> = ContinuousClock(),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.policy = policy
        self.key = key
        self.watch = DeadlineWatch(clock: clock)
        self.metricsFactory = metricsFactory ?? MetricsSystem.factory
    }

    /// The state of the circuit named `key` (a circuit never used is closed).
    public func state(forKey key: String) -> State {
        let now = watch.now
        return table.withLock { $0.circuits[key]?.state(at: now) ?? .closed }
    }

    /// Lets the call through when its circuit allows, counts its outcome, and refuses it with
    /// ``NetworkError/circuitOpen(_:)`` otherwise.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        let key = key.make(request, context)
        let (admission, transition) = admit(key)
        if let transition { report(transition, key: key, logger: context.logger) }
        let permit: CircuitState.Permit
        switch admission {
        case .permitted(let given)?:
            permit = given
        case .refused(let retryAfter)?:
            Counter(label: "networkingkit_circuit_refusals_total", dimensions: [("key", key)], factory: metricsFactory).increment()
            throw NetworkError.circuitOpen(CircuitOpenFailure(key: key, retryAfter: retryAfter, request: RequestSummary(request)))
        case nil:
            return try await next(request, body, context)
        }
        do {
            let answer = try await next(request, body, context)
            record(policy.classify(.success(answer.response)), permit: permit, key: key, logger: context.logger)
            return answer
        } catch {
            // The call's deadline cancels the chain: a timeout, though the breaker sees a cancellation.
            let verdict = context.deadline?.hasPassed == true ? .failure : policy.classify(.failure(error))
            record(verdict, permit: permit, key: key, logger: context.logger)
            throw error
        }
    }

    /// Whether a call for `request`, made `delay` from now, would be let through: what
    /// ``RetryMiddleware`` asks before it waits for a retry.
    func admits(_ request: HTTPRequest, context: RequestContext, after delay: Duration) -> Bool {
        let key = key.make(request, context)
        let now = watch.now
        return table.withLock { $0.circuits[key]?.admits(after: delay, now: now, policy: policy) ?? true }
    }

    /// The admission of a call to `key`'s circuit: a permit, `nil` for a call let through
    /// uncounted (no room for another circuit), or a refusal.
    private func admit(_ key: String) -> (CircuitState.Admission?, CircuitState.Transition?) {
        let now = watch.now
        let policy = policy
        return table.withLock { table in
            if table.circuits[key] == nil {
                if table.circuits.count >= Self.maximumCircuits, now >= table.nextSweep {
                    table.circuits = table.circuits.filter { !$0.value.isIdle(at: now) }
                    table.nextSweep = now + policy.window / FailureWindow.bucketCount
                }
                guard table.circuits.count < Self.maximumCircuits else { return (nil, nil) }
                table.nextID += 1
                table.circuits[key] = CircuitState(id: table.nextID, policy: policy)
            }
            let (admission, transition) = table.circuits[key]!.admit(now: now, policy: policy)
            if let transition { gauge(transition, key: key) }
            return (admission, transition)
        }
    }

    private func record(_ verdict: Verdict, permit: CircuitState.Permit, key: String, logger: Logger) {
        let now = watch.now
        let policy = policy
        let transition = table.withLock { table -> CircuitState.Transition? in
            let transition = table.circuits[key]?.record(verdict, permit: permit, now: now, policy: policy)
            if let transition { gauge(transition, key: key) }
            return transition
        }
        if let transition { report(transition, key: key, logger: logger) }
    }

    /// The state gauge, set under the table's lock so that two changes close together are
    /// recorded in their order.
    private func gauge(_ transition: CircuitState.Transition, key: String) {
        let value =
            switch transition.to {
            case .closed: 0
            case .halfOpen: 1
            case .open: 2
            }
        Gauge(label: "networkingkit_circuit_state", dimensions: [("key", key)], factory: metricsFactory).record(value)
    }

    private func report(_ transition: CircuitState.Transition, key: String, logger: Logger) {
        switch transition.to {
        case .closed:
            logger.info("Circuit closed", metadata: ["circuit": "\(key)"])
        case .halfOpen:
            logger.info("Circuit half-open: probing", metadata: ["circuit": "\(key)", "probes": "\(policy.halfOpenProbes)"])
        case .open:
            logger.warning(
                "Circuit opened",
                metadata: [
                    "circuit": "\(key)", "calls": "\(transition.calls)", "failures": "\(transition.failures)",
                    "open-ms": "\(Int(min(policy.openDuration.timeInterval * 1000, 1e15)))",
                ])
        }
    }
}
