public import CoreMetrics
public import HTTPTypes

/// Records each call in swift-metrics: how many, how long, with which outcome, and what the
/// cache did.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())   // once, at launch
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: baseURL,
///     middlewares: [MetricsMiddleware(), HTTPCache(storage: MemoryCacheStorage()), RetryMiddleware()]))
/// ```
///
/// | Metric                              | Type    | Dimensions                                  |
/// |-------------------------------------|---------|---------------------------------------------|
/// | `networkingkit_requests_total`      | counter | `method`, `operation` (when the call has a ``RequestContext/operationName``), `status_class` (`2xx`…`5xx`, or `error`), `error` (the kind, for `error`) |
/// | `networkingkit_request_duration`    | timer (nanoseconds) | the same                        |
/// | `networkingkit_cache_total`         | counter | `result`: `hit`, `miss`, `revalidated`, `stale` |
/// | `networkingkit_time_to_first_byte`  | timer (nanoseconds) | as `requests_total`, for answers a request was sent for (``HTTPAnswer/timing``) |
/// | `networkingkit_connection_uses_total`   | counter | `reused`: `true` or `false`: the connection of each answer, where the transport says (`NIOTransport`) |
/// | `networkingkit_connect_duration`, `networkingkit_tls_handshake_duration` | timer (nanoseconds) | none of its own: new connections, where the transport reports them |
///
/// The prefix (`networkingkit`) and extra dimensions (added to every metric) are set in
/// ``init(labelPrefix:dimensions:factory:)``.
///
/// Work that happens inside other components is counted by them, since a middleware outside
/// cannot see it: `networkingkit_retries_total` by ``RetryMiddleware``,
/// `networkingkit_token_refreshes_total` by ``TokenRefresher`` and
/// `networkingkit_deduplicated_total` (callers that joined a call in flight) by
/// ``RequestDeduplicator``, each through the same `MetricsSystem` or a factory given to it.
///
/// **Where to put it.** First in the list (outermost), it records one call per logical request,
/// whatever retries and refreshes happen inside, and sees the cache status an
/// ``HTTPCache`` inside it gives each answer (``HTTPAnswer/cacheStatus``). Placed after a ``RetryMiddleware``, it records each attempt.
///
/// **Free without a backend.** The factory is read once, at creation. When it is swift-metrics'
/// no-op factory (nothing bootstrapped), a call goes straight to `next`, with no clock read and
/// no metric touched. Create the middleware after `MetricsSystem.bootstrap`.
public struct MetricsMiddleware: Middleware {
    /// The start of every metric's label.
    public let labelPrefix: String
    /// Dimensions added to every metric, before the middleware's own.
    public let dimensions: [(String, String)]

    private let factory: any MetricsFactory
    private let isNoOp: Bool
    private let cacheCounters: [CacheStatus: Counter]
    /// What the transport reported of the connection: reused or new, connect and TLS times.
    private let connections: ConnectionMetrics?
    private let outcomes: LockedState<[OutcomeKey: Outcome]>

    /// Creates a metrics middleware.
    /// - Parameters:
    ///   - labelPrefix: The start of every label; `networkingkit` by default.
    ///   - dimensions: Dimensions added to every metric, such as `[("service", "pixar")]`.
    ///   - factory: The metrics backend; `nil` (the default) uses `MetricsSystem.factory`.
    public init(
        labelPrefix: String = "networkingkit",
        dimensions: [(String, String)] = [],
        factory: (any MetricsFactory)? = nil
    ) {
        let factory = factory ?? MetricsSystem.factory
        self.labelPrefix = labelPrefix
        self.dimensions = dimensions
        self.factory = factory
        self.isNoOp = factory is NOOPMetricsHandler
        var cacheCounters: [CacheStatus: Counter] = [:]
        if !isNoOp {
            for status in CacheStatus.allCases {
                cacheCounters[status] = Counter(
                    label: "\(labelPrefix)_cache_total",
                    dimensions: dimensions + [("result", status.rawValue.lowercased())], factory: factory)
            }
        }
        self.cacheCounters = cacheCounters
        self.connections = isNoOp ? nil : ConnectionMetrics(labelPrefix: labelPrefix, dimensions: dimensions, factory: factory)
        self.outcomes = LockedState([:])
    }

    /// Runs the rest of the chain and records how it went.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        guard !isNoOp else { return try await next(request, body, context) }
        let start = ContinuousClock.now
        do {
            let answer = try await next(request, body, context)
            let key = OutcomeKey(
                method: request.method.rawValue, operation: context.operationName,
                statusClass: ObservabilityNames.statusClass(answer.response.status.code), error: nil)
            let outcome = record(key, since: start)
            if let status = answer.cacheStatus { cacheCounters[status]?.increment() }
            if let timing = answer.timing {
                if let firstByte = timing.firstByte { outcome.firstByte?.recordNanoseconds(Self.nanoseconds(firstByte)) }
                connections?.record(timing)
            }
            return answer
        } catch {
            let statusClass = (error as? NetworkError)?.statusCode.map(ObservabilityNames.statusClass)
            let key = OutcomeKey(
                method: request.method.rawValue, operation: context.operationName, statusClass: statusClass ?? "error",
                error: statusClass == nil ? ObservabilityNames.errorKind(error) : nil)
            record(key, since: start)
            throw error
        }
    }

    /// Counts one call with this outcome and records its duration.
    @discardableResult
    private func record(_ key: OutcomeKey, since start: ContinuousClock.Instant) -> Outcome {
        let elapsed = ContinuousClock.now - start
        let outcome = outcome(for: key)
        outcome.requests.increment()
        outcome.duration.recordNanoseconds(Self.nanoseconds(elapsed))
        return outcome
    }

    /// The metrics of an outcome, made on its first call and reused after.
    private func outcome(for key: OutcomeKey) -> Outcome {
        outcomes.withLock { outcomes in
            if let outcome = outcomes[key] { return outcome }
            var dimensions = self.dimensions + [("method", key.method)]
            if let operation = key.operation { dimensions.append(("operation", operation)) }
            dimensions.append(("status_class", key.statusClass))
            if let error = key.error { dimensions.append(("error", error)) }
            let outcome = Outcome(
                requests: Counter(label: "\(labelPrefix)_requests_total", dimensions: dimensions, factory: factory),
                duration: Timer(label: "\(labelPrefix)_request_duration", dimensions: dimensions, factory: factory),
                // Only outcomes with an answer have a first byte.
                firstByte: key.error == nil
                    ? Timer(label: "\(labelPrefix)_time_to_first_byte", dimensions: dimensions, factory: factory) : nil)
            outcomes[key] = outcome
            return outcome
        }
    }

    fileprivate static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }

    /// What tells one outcome's metrics from another's.
    private struct OutcomeKey: Hashable {
        let method: String
        let operation: String?
        let statusClass: String
        let error: String?
    }

    /// The metrics of one outcome.
    private struct Outcome {
        let requests: Counter
        let duration: Timer
        let firstByte: Timer?
    }

    /// The metrics of the connections answers came on.
    private struct ConnectionMetrics {
        let reused: Counter
        let new: Counter
        let connect: Timer
        let tlsHandshake: Timer

        init(labelPrefix: String, dimensions: [(String, String)], factory: any MetricsFactory) {
            reused = Counter(label: "\(labelPrefix)_connection_uses_total", dimensions: dimensions + [("reused", "true")], factory: factory)
            new = Counter(label: "\(labelPrefix)_connection_uses_total", dimensions: dimensions + [("reused", "false")], factory: factory)
            connect = Timer(label: "\(labelPrefix)_connect_duration", dimensions: dimensions, factory: factory)
            tlsHandshake = Timer(label: "\(labelPrefix)_tls_handshake_duration", dimensions: dimensions, factory: factory)
        }

        func record(_ timing: RequestTiming) {
            guard let reusedConnection = timing.reusedConnection else { return }
            (reusedConnection ? reused : new).increment()
            guard !reusedConnection else { return }
            if let connect = timing.connect { self.connect.recordNanoseconds(MetricsMiddleware.nanoseconds(connect)) }
            if let tls = timing.tlsHandshake { tlsHandshake.recordNanoseconds(MetricsMiddleware.nanoseconds(tls)) }
        }
    }
}
