/// When a slow call gets a second copy sent, for an endpoint that opts in: the first answer wins,
/// the others are cancelled. Read by ``HedgingMiddleware`` from ``RequestOptions/hedging``.
///
/// ```swift
/// var options = RequestOptions()
/// options.hedging = HedgingPolicy(delay: .percentile(0.95, fallback: .milliseconds(200)))
/// ```
///
/// Hedging cuts the tail of an endpoint's latency (a slow server, a packet lost) at the price of a
/// few more requests: with the delay at the endpoint's 95th percentile, about one call in twenty
/// sends a second copy. Only calls that are safe to repeat are hedged, by the rules retries follow
/// (``RetryPolicy/allowsRetry(of:options:)``): an idempotent method, an `Idempotency-Key`, or
/// ``RequestOptions/isIdempotent``; and never a one-shot streamed body.
public struct HedgingPolicy: Sendable, Hashable {
    /// How long the first copy is given before the next is sent.
    public enum Delay: Sendable, Hashable {
        /// Always this long.
        case fixed(Duration)
        /// The given percentile (0.95 for the 95th) of the endpoint's recent answers' times (the
        /// last 128), once 20 are known; `fallback` until then.
        case percentile(Double, fallback: Duration)
    }

    /// How long the first copy is given before the next is sent.
    public var delay: Delay
    /// The most copies sent besides the first: 1 by default.
    public var maxHedges: Int

    /// Creates a policy.
    public init(delay: Delay, maxHedges: Int = 1) {
        self.delay = delay
        self.maxHedges = max(0, maxHedges)
    }
}

extension RequestOptions {
    private enum HedgingKey: RequestOptionKey {
        static let defaultValue: HedgingPolicy? = nil
    }

    /// This endpoint's hedging, or `nil` (the default) for none.
    public var hedging: HedgingPolicy? {
        get { self[HedgingKey.self] }
        set { self[HedgingKey.self] = newValue }
    }
}
