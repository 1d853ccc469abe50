import Foundation
public import HTTPTypes

/// When and how often a failed request is tried again, and how long to wait in between.
///
/// The presets are the seeds' (`default`, `aggressive`, and `disabled`, the seeds' `none`). Delays grow exponentially from
/// ``baseDelay`` by ``multiplier``, are capped at ``maxDelay``, and are spread by ``jitter`` so
/// that clients failing together do not retry together.
///
/// What is retried, and why:
/// - Transport failures that a new connection usually cures (``retryableFailures``), and timeouts.
/// - The statuses that mean "try again later" (``retryableStatuses``): 408, 429, 500, 502, 503, 504.
///   Other 4xx answers will not change, so they are never retried.
/// - Only idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS, TRACE), unless the request carries an
///   `Idempotency-Key` header or its endpoint sets ``RequestOptions/isIdempotent``: repeating a POST
///   the server may already have applied could apply it twice.
/// - Never a one-shot streamed body, which cannot be sent again.
///
/// A `Retry-After` on 429 or 503 replaces the computed delay; one longer than ``maxDelay`` stops
/// the retries at once, so the caller gets the error (with its `Retry-After`) instead of a task
/// sleeping for an hour.
public struct RetryPolicy: Sendable, Hashable {
    /// How a computed delay is spread.
    @nonexhaustive
    public enum Jitter: Sendable, Hashable {
        /// The exact exponential delay: 0.5, 1, 2 s… Predictable, but clients retry in lockstep.
        case none
        /// A random delay between 0 and the exponential one (AWS's "full jitter"): the best spread.
        case full
        /// Half the exponential delay plus a random part of the other half: never retries at once.
        case equal
        /// A random delay between the base and three times the previous one, capped (AWS's
        /// "decorrelated jitter").
        case decorrelated
    }

    /// The most attempts, the first included; 1 means no retry.
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter.
    public var baseDelay: Duration
    /// How much each delay grows over the previous one.
    public var multiplier: Double
    /// The longest single delay, and the longest `Retry-After` honoured.
    public var maxDelay: Duration
    /// How delays are spread.
    public var jitter: Jitter
    /// The HTTP statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// The transport failures that are retried.
    public var retryableFailures: Set<TransportFailure.Kind>
    /// Whether a request that timed out is retried.
    public var retriesTimeouts: Bool

    /// The methods that are safe to repeat (RFC 9110 §9.2.2).
    public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]

    /// Transport failures worth a new attempt, each for a reason:
    /// - `connectionLost`: the connection dropped (a server restart, an idle connection the server
    ///   closed); a new connection usually works. Alamofire retries `networkConnectionLost` too.
    /// - `connectionRefused`: nothing listened, often a server restarting or a load balancer
    ///   rotating; worth a retry after a pause (Alamofire: `cannotConnectToHost`).
    /// - `hostNotFound`: DNS failures are often momentary (Alamofire: `dnsLookupFailed`).
    /// - `notConnected`: the device may be back online a moment later (Alamofire:
    ///   `notConnectedToInternet`).
    ///
    /// Not retried: `secureConnectionFailed` (a certificate does not fix itself), `invalidResponse`
    /// (the server speaks broken HTTP), `truncatedBody` (seen while reading the body, after the
    /// middleware chain has returned), and `other`.
    public static let transientFailures: Set<TransportFailure.Kind> = [
        .connectionLost, .connectionRefused, .hostNotFound, .notConnected,
    ]

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(20),
        jitter: Jitter = .full,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableFailures: Set<TransportFailure.Kind> = RetryPolicy.transientFailures,
        retriesTimeouts: Bool = true
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(.zero, maxDelay)
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.retryableFailures = retryableFailures
        self.retriesTimeouts = retriesTimeouts
    }

    /// Creates a policy with its base delay in seconds, as code written against `TimeInterval`
    /// has it: `RetryPolicy(maxAttempts: 3, baseDelay: 0.5)`. The other values are the defaults.
    public init(maxAttempts: Int, baseDelay seconds: Double) {
        self.init(maxAttempts: maxAttempts, baseDelay: .seconds(seconds.isFinite ? max(0, seconds) : 0))
    }

    /// 3 attempts, 0.5 s then 1 s (before jitter), full jitter.
    public static let `default` = RetryPolicy()
    /// 5 attempts from 0.25 s, for calls that matter more than the load they add.
    public static let aggressive = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(250))
    /// One attempt: no retry.
    public static let disabled = RetryPolicy(maxAttempts: 1)

    /// Renamed ``disabled``: on an optional, `.none` means "not set", so a payment marked
    /// `.none` was retried with the middleware's policy.
    @available(*, unavailable, renamed: "disabled")
    public static var none: RetryPolicy { disabled }

    /// The delay before retry number `retry` (1 for the first), before jitter:
    /// `baseDelay × multiplier^(retry − 1)`, capped at ``maxDelay``.
    public func backoff(forRetry retry: Int) -> Duration {
        guard baseDelay > .zero else { return .zero }
        // Clamped so that a large retry number cannot overflow to infinity (or NaN).
        let seconds = baseDelay.timeInterval * pow(multiplier, Double(min(max(0, retry - 1), 64)))
        return !seconds.isFinite || seconds >= maxDelay.timeInterval ? maxDelay : .seconds(seconds)
    }

    /// The delay before retry number `retry`, with jitter drawn from `random` (a value in 0..<1).
    /// - Parameters:
    ///   - retry: The retry's number, 1 for the first.
    ///   - previous: The delay used before the previous retry (decorrelated jitter grows from it).
    ///   - random: A source of values in 0..<1 for the jitter.
    public func delay(forRetry retry: Int, previous: Duration, random: () -> Double) -> Duration {
        let exponential = backoff(forRetry: retry)
        let unit = min(max(random(), 0), 1)
        switch jitter {
        case .none:
            return exponential
        case .full:
            return exponential * unit
        case .equal:
            return exponential / 2 + (exponential / 2) * unit
        case .decorrelated:
            let upper = max(baseDelay, previous * 3)
            let value = baseDelay + (upper - baseDelay) * unit
            return min(value, maxDelay)
        }
    }

    /// Whether `request` may be sent again: an idempotent method, an `Idempotency-Key`, or an
    /// endpoint that says so.
    public func allowsRetry(of request: HTTPRequest, options: RequestOptions) -> Bool {
        maxAttempts > 1
            && (Self.idempotentMethods.contains(request.method) || options.isIdempotent
                || request.headerFields.contains { $0.name.canonicalName == Self.idempotencyKey })
    }

    /// The `Idempotency-Key` header's name (IETF draft-ietf-httpapi-idempotency-key-header), lowercased.
    public static let idempotencyKey = "idempotency-key"

    /// What to do after a failed attempt.
    enum Decision: Equatable {
        /// Try again, after the server's `Retry-After` when it gave one.
        case retry(serverDelay: Duration?)
        /// Stop: the outcome is final.
        case stop
    }

    /// The decision for an answer with `status` and `headers`.
    func decision(status: Int, headers: HTTPFields, now: Date = Date()) -> Decision {
        guard retryableStatuses.contains(status) else { return .stop }
        guard status == 429 || status == 503, let value = headers[.retryAfter],
            let retryAfter = RetryAfter(headerValue: value)
        else { return .retry(serverDelay: nil) }
        let seconds = max(0, retryAfter.delay(from: now))
        // Fail fast rather than sleep past the cap; the caller sees the Retry-After in the error.
        guard seconds <= maxDelay.timeInterval else { return .stop }
        return .retry(serverDelay: .seconds(seconds))
    }

    /// The decision for an error thrown by the rest of the chain or by an operation.
    func decision(for error: any Error) -> Decision {
        guard let error = Self.networkError(from: error) else { return .stop }
        switch error {
        case .transport(let failure):
            return retryableFailures.contains(failure.kind) ? .retry(serverDelay: nil) : .stop
        case .timeout:
            return retriesTimeouts ? .retry(serverDelay: nil) : .stop
        case .circuitOpen:
            // Refused without being sent: another attempt would be refused too.
            return .stop
        default:
            guard let failure = error.failure else { return .stop }
            return decision(status: failure.status.code, headers: failure.headerFields)
        }
    }

    /// The error as the policy judges it: a `NetworkError` as thrown, or the one a Foundation URL
    /// error stands for (code written against URLSession throws `URLError(.timedOut)`, bare or
    /// wrapped in ``NetworkError/unknown(_:)``), so that it is retried as the transport's would be.
    static func networkError(from error: any Error) -> NetworkError? {
        let foundation: any Error
        switch error {
        case NetworkError.unknown(let wrapped): foundation = wrapped
        case let error as NetworkError: return error
        default: foundation = error
        }
        guard (foundation as NSError).domain == NSURLErrorDomain else { return nil }
        return URLErrorMapping.networkError(for: foundation, request: RequestSummary(method: .get, url: nil))
    }
}

extension RetryPolicy.Jitter: CustomStringConvertible {
    /// The case's name: `none`, `full`, `equal` or `decorrelated`.
    public var description: String {
        switch self {
        case .none: "none"
        case .full: "full"
        case .equal: "equal"
        case .decorrelated: "decorrelated"
        }
    }
}
