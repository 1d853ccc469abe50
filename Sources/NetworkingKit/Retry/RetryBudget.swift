/// A token bucket that bounds how many retries a client makes, shared by all its calls, so a
/// failing upstream never turns N requests into N × maxAttempts (AWS SDKs' and gRPC's retry
/// throttling).
///
/// Each retry takes ``retryCost`` tokens and is not made when too few are left; each answer that
/// needs no retry gives back ``successRefund``, up to ``capacity``. With the defaults (100, 5, 1),
/// a burst of failing calls gets at most 20 retries, and a healthy client earns them back after
/// 100 good answers.
public final class RetryBudget: Sendable {
    /// The most tokens the bucket holds, and how many it starts with.
    public let capacity: Int
    /// The tokens one retry takes.
    public let retryCost: Int
    /// The tokens a successful attempt returns.
    public let successRefund: Int

    private let tokens: LockedState<Int>

    /// Creates a full budget.
    public init(capacity: Int = 100, retryCost: Int = 5, successRefund: Int = 1) {
        self.capacity = max(0, capacity)
        self.retryCost = max(0, retryCost)
        self.successRefund = max(0, successRefund)
        self.tokens = LockedState(max(0, capacity))
    }

    /// The tokens left.
    public var availableTokens: Int {
        tokens.withLock { $0 }
    }

    /// Takes the cost of one retry, if the budget allows it.
    /// - Returns: Whether the retry may be made.
    public func withdrawForRetry() -> Bool {
        tokens.withLock { tokens in
            guard tokens >= retryCost else { return false }
            tokens -= retryCost
            return true
        }
    }

    /// Gives back the refund for an attempt that needed no retry.
    public func recordSuccess() {
        tokens.withLock { $0 = min(capacity, $0 + successRefund) }
    }
}
