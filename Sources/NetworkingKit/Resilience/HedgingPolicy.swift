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
        /// last 128 good answers from the network), once 20 are known; `fallback` until then. An
        /// endpoint is its ``RequestOptions/operationName`` when it has one, else its method and
        /// URL without the query: give endpoints with ids in their paths (`/films/42`) a name, or
        /// each id learns on its own.
        case percentile(Double, fallback: Duration)
    }

    /// How long the first copy is given before the next is sent.
    public var delay: Delay
    /// The most copies sent besides the first: 1 by default, at most ``largestMaxHedges``.
    public var maxHedges: Int

    /// The most hedges a policy sends: 4, five copies in all (gRPC's cap on attempts).
    public static let largestMaxHedges = 4

    /// Creates a policy.
    public init(delay: Delay, maxHedges: Int = 1) {
        self.delay = delay
        self.maxHedges = min(max(0, maxHedges), Self.largestMaxHedges)
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
