/// One circuit's state, as plain values: what ``CircuitBreaker`` keeps per key, under its lock.
/// Times are durations on the breaker's clock since the breaker was made.
struct CircuitState: Sendable {
    enum Phase: Sendable, Equatable {
        /// Calls go through; their outcomes fill the window.
        case closed
        /// Calls are refused until `until`.
        case open(until: Duration)
        /// Up to the policy's number of probes go through; one failure opens the circuit again,
        /// that many successes close it.
        case halfOpen(inFlight: Int, successes: Int)
    }

    /// A call let through: which phase it was let through in, for its outcome to be counted there.
    struct Permit: Sendable {
        let generation: Int
        let isProbe: Bool
        let start: Duration
    }

    enum Admission: Sendable {
        case permitted(Permit)
        /// Refused; `retryAfter` is `nil` while the probes are on their way.
        case refused(retryAfter: Duration?)
    }

    /// A change of phase, for the breaker to log and count.
    struct Transition: Sendable, Equatable {
        let to: CircuitBreaker.State
        /// The calls and failures in the window that opened the circuit.
        var calls = 0
        var failures = 0
    }

    private(set) var phase = Phase.closed
    /// Bumped on every change of phase: an outcome of a call let through before is not counted.
    private(set) var generation = 0
    private var window: FailureWindow

    init(policy: CircuitBreaker.Policy) {
        window = FailureWindow(span: policy.window)
    }

    /// Lets a call through or refuses it at `now`; an open circuit whose time is up turns half-open.
    mutating func admit(now: Duration, policy: CircuitBreaker.Policy) -> (Admission, Transition?) {
        var transition: Transition?
        if case .open(let until) = phase {
            guard now >= until else { return (.refused(retryAfter: until - now), nil) }
            enter(.halfOpen(inFlight: 0, successes: 0))
            transition = Transition(to: .halfOpen)
        }
        switch phase {
        case .closed:
            return (.permitted(Permit(generation: generation, isProbe: false, start: now)), transition)
        case .halfOpen(let inFlight, let successes):
            guard inFlight + successes < policy.halfOpenProbes else { return (.refused(retryAfter: nil), transition) }
            phase = .halfOpen(inFlight: inFlight + 1, successes: successes)
            return (.permitted(Permit(generation: generation, isProbe: true, start: now)), transition)
        case .open:
            preconditionFailure("an open circuit whose time is up was made half-open above")
        }
    }

    /// Counts the outcome of a call let through with `permit`, at `now`.
    mutating func record(_ verdict: CircuitBreaker.Verdict, permit: Permit, now: Duration, policy: CircuitBreaker.Policy) -> Transition? {
        guard permit.generation == generation else { return nil }
        var verdict = verdict
        if verdict == .success, let slow = policy.slowCallThreshold, now - permit.start > slow {
            verdict = .failure
        }
        switch phase {
        case .closed:
            guard verdict != .ignored else { return nil }
            window.add(failure: verdict == .failure, at: now)
            let (calls, failures) = window.totals(at: now)
            guard calls >= policy.minimumCalls, Double(failures) >= policy.failureRateThreshold * Double(calls) else { return nil }
            enter(.open(until: now + policy.openDuration))
            return Transition(to: .open, calls: calls, failures: failures)
        case .halfOpen(let inFlight, let successes):
            switch verdict {
            case .ignored:
                phase = .halfOpen(inFlight: inFlight - 1, successes: successes)
                return nil
            case .failure:
                enter(.open(until: now + policy.openDuration))
                return Transition(to: .open, calls: successes + 1, failures: 1)
            case .success:
                guard successes + 1 >= policy.halfOpenProbes else {
                    phase = .halfOpen(inFlight: inFlight - 1, successes: successes + 1)
                    return nil
                }
                enter(.closed)
                return Transition(to: .closed)
            }
        case .open:
            return nil
        }
    }

    /// The state as the breaker reports it, at `now`.
    func state(at now: Duration) -> CircuitBreaker.State {
        switch phase {
        case .closed: .closed
        case .open(let until): now >= until ? .halfOpen : .open
        case .halfOpen: .halfOpen
        }
    }

    /// Whether a call made `delay` after `now` would be let through (the phase as it would be then).
    func admits(after delay: Duration, now: Duration, policy: CircuitBreaker.Policy) -> Bool {
        switch phase {
        case .closed: true
        case .open(let until): now + delay >= until
        case .halfOpen(let inFlight, let successes): inFlight + successes < policy.halfOpenProbes
        }
    }

    /// Whether the circuit is closed with nothing in its window: it can be forgotten.
    func isIdle(at now: Duration) -> Bool {
        phase == .closed && window.totals(at: now).calls == 0
    }

    private mutating func enter(_ next: Phase) {
        phase = next
        generation &+= 1
        window.reset()
    }
}

/// The outcomes of the last `span` of time, in ten buckets: a sliding window in fixed memory.
struct FailureWindow: Sendable {
    static let bucketCount = 10

    private struct Bucket: Sendable {
        var index = Int.min
        var calls = 0
        var failures = 0
    }

    private let width: Duration
    private var buckets = [Bucket](repeating: Bucket(), count: bucketCount)

    init(span: Duration) {
        width = max(span / Self.bucketCount, .nanoseconds(1))
    }

    private func index(at now: Duration) -> Int {
        Int(now / width)
    }

    mutating func add(failure: Bool, at now: Duration) {
        let index = index(at: now)
        let slot = index % Self.bucketCount
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        buckets[slot].calls += 1
        if failure { buckets[slot].failures += 1 }
    }

    /// The calls and failures of the buckets still inside the window at `now`.
    func totals(at now: Duration) -> (calls: Int, failures: Int) {
        let current = index(at: now)
        return buckets.filter { $0.index > current - Self.bucketCount && $0.index <= current }
            .reduce((0, 0)) { ($0.0 + $1.calls, $0.1 + $1.failures) }
    }

    mutating func reset() {
        buckets = [Bucket](repeating: Bucket(), count: Self.bucketCount)
    }
}
