/// The one retry loop, under ``withRetry(policy:clock:random:operation:)`` and
/// ``RetryMiddleware``: run an attempt, ask whether its outcome deserves another, wait (the
/// server's delay, else the policy's backoff with jitter), and try again, up to the policy's
/// number of attempts. Cancellation is never retried.
enum RetryLoop {
    /// Runs `attempt` (given its number, from 1) until `decision` says stop, the attempts run
    /// out, or `mayRetry` refuses; then returns or throws the last outcome.
    /// - Parameters:
    ///   - decision: Whether an outcome is worth another attempt.
    ///   - mayRetry: Asked before each wait, with the outcome and the delay, once a retry is due
    ///     and attempts remain: the caller's own limits (a deadline, a budget) and what it does
    ///     before waiting (log, count, drop the abandoned body).
    static func run<Value>(
        policy: RetryPolicy,
        clock: any Clock<Duration>,
        random: () -> Double,
        attempt: (_ number: Int) async throws -> Value,
        decision: (Result<Value, any Error>) -> RetryPolicy.Decision,
        mayRetry: (_ outcome: Result<Value, any Error>, _ number: Int, _ delay: Duration) async -> Bool
    ) async throws -> Value {
        var previousDelay = policy.baseDelay
        var number = 1
        while true {
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(try await attempt(number))
            } catch {
                if error is CancellationError || Task.isCancelled { throw error }
                outcome = .failure(error)
            }
            guard case .retry(let serverDelay) = decision(outcome) else { return try outcome.get() }
            let delay = serverDelay ?? policy.delay(forRetry: number, previous: previousDelay, random: random)
            guard number < policy.maxAttempts, await mayRetry(outcome, number, delay) else { return try outcome.get() }
            try await clock.sleep(for: delay)
            previousDelay = delay
            number += 1
        }
    }
}
