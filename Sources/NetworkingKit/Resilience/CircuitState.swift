/// One circuit's state, as plain values: what ``CircuitBreaker`` keeps per key, under its lock.
/// Times are durations on the breaker's clock since the breaker was made.
struct CircuitState: Sendable {
    /// A probe let through a half-open circuit, and when.
    struct Probe: Sendable, Equatable {
        let number: Int
        let start: Duration
    }

    enum Phase: Sendable, Equatable {
        /// Calls go through; their outcomes fill the window.
        case closed
        /// Calls are refused until `until`.
        case open(until: Duration)
        /// Up to the policy's number of probes go through; one failure opens the circuit again,
        /// that many successes close it. A probe unanswered after the open time gives its place
        /// to another (as Polly lets a new probe through after each break).
        case halfOpen(probes: [Probe], successes: Int)
    }

    /// A call let through: the circuit and phase it was let through in, for its outcome to be
    /// counted there and nowhere else.
    struct Permit: Sendable {
        let circuit: UInt64
        let generation: Int
        /// The probe's number, for a call let through a half-open circuit.
        let probe: Int?
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

    /// This circuit among all the breaker ever made: a permit of a circuit forgotten and made
    /// again is not counted in the new one.
    let id: UInt64
    private(set) var phase = Phase.closed
    /// Bumped on every change of phase: an outcome of a call let through before is not counted.
    private(set) var generation = 0
    private var nextProbe = 0
    private var window: FailureWindow

    init(id: UInt64, policy: CircuitBreaker.Policy) {
        self.id = id
        window = FailureWindow(span: policy.window)
    }

    /// Lets a call through or refuses it at `now`; an open circuit whose time is up turns half-open.
    mutating func admit(now: Duration, policy: CircuitBreaker.Policy) -> (Admission, Transition?) {
        var transition: Transition?
        if case .open(let until) = phase {
            guard now >= until else { return (.refused(retryAfter: until - now), nil) }
            enter(.halfOpen(probes: [], successes: 0))
            transition = Transition(to: .halfOpen)
        }
        switch phase {
        case .closed:
            return (.permitted(Permit(circuit: id, generation: generation, probe: nil, start: now)), transition)
        case .halfOpen(var probes, let successes):
            probes.removeAll { now - $0.start >= policy.openDuration }
            guard probes.count + successes < policy.halfOpenProbes else {
                phase = .halfOpen(probes: probes, successes: successes)
                return (.refused(retryAfter: nil), transition)
            }
            nextProbe += 1
            probes.append(Probe(number: nextProbe, start: now))
            phase = .halfOpen(probes: probes, successes: successes)
            return (.permitted(Permit(circuit: id, generation: generation, probe: nextProbe, start: now)), transition)
        case .open:
            preconditionFailure("an open circuit whose time is up was made half-open above")
        }
    }

    /// Counts the outcome of a call let through with `permit`, at `now`.
    mutating func record(_ verdict: CircuitBreaker.Verdict, permit: Permit, now: Duration, policy: CircuitBreaker.Policy) -> Transition? {
        guard permit.circuit == id, permit.generation == generation else { return nil }
        var verdict = verdict
        // Slow is slow however the call ended, cancelled by the caller's patience included.
        if verdict != .failure, let slow = policy.slowCallThreshold, now - permit.start > slow {
            verdict = .failure
        }
        switch phase {
        case .closed:
            guard verdict != .ignored else { return nil }
            window.add(failure: verdict == .failure, at: now)
            let (calls, failures) = window.totals(at: now)
            guard calls >= policy.minimumCalls, failures > 0, Double(failures) >= policy.failureRateThreshold * Double(calls) else {
                return nil
            }
            enter(.open(until: now + policy.openDuration))
            return Transition(to: .open, calls: calls, failures: failures)
        case .halfOpen(var probes, let successes):
            // A probe whose place was given to another is not counted.
            guard let index = probes.firstIndex(where: { $0.number == permit.probe }) else { return nil }
            probes.remove(at: index)
            switch verdict {
            case .ignored:
                phase = .halfOpen(probes: probes, successes: successes)
                return nil
            case .failure:
                enter(.open(until: now + policy.openDuration))
                return Transition(to: .open, calls: successes + 1, failures: 1)
            case .success:
                guard successes + 1 >= policy.halfOpenProbes else {
                    phase = .halfOpen(probes: probes, successes: successes + 1)
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
        case .closed:
            return true
        case .open(let until):
            return now + delay >= until
        case .halfOpen(let probes, let successes):
            let later = now + delay
            return probes.filter { later - $0.start < policy.openDuration }.count + successes < policy.halfOpenProbes
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

    /// The bucket number of `now`, floored (a clock may read before the breaker was made) and
    /// kept within ±10¹⁸ so that no conversion traps.
    private func index(at now: Duration) -> Int {
        Int(min(max(now / width, -1e18), 1e18).rounded(.down))
    }

    mutating func add(failure: Bool, at now: Duration) {
        let index = index(at: now)
        let slot = (index % Self.bucketCount + Self.bucketCount) % Self.bucketCount
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        buckets[slot].calls += 1
        if failure { buckets[slot].failures += 1 }
    }

    /// The calls and failures of the buckets still inside the window at `now`.
    func totals(at now: Duration) -> (calls: Int, failures: Int) {
        let current = index(at: now)
        var calls = 0
        var failures = 0
        for bucket in buckets where bucket.index > current - Self.bucketCount && bucket.index <= current {
            calls += bucket.calls
            failures += bucket.failures
        }
        return (calls, failures)
    }

    mutating func reset() {
        buckets = [Bucket](repeating: Bucket(), count: Self.bucketCount)
    }
}
