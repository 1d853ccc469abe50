import Foundation
import MetricsTestKit
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Hedged calls on a stub transport, the delays on a manual clock: a copy goes out exactly when
/// the test moves the clock past the delay.
@Suite("Hedging middleware", .timeLimit(.minutes(5)))
struct HedgingMiddlewareTests {
    static func hedged(_ path: String = "/items", delay: HedgingPolicy.Delay = .fixed(.milliseconds(100)), method: HTTPMethod = .get)
        -> Request<Void>
    {
        var options = RequestOptions()
        options.hedging = HedgingPolicy(delay: delay)
        return Request<Void>(path: path, method: method, options: options)
    }

    struct Setup {
        let client: LiveAPIClient
        let transport: StubTransport
        let clock: ManualClock
        let metrics: TestMetrics
    }

    static func setup(
        budget: RetryBudget? = nil, circuitBreaker: CircuitBreaker? = nil, clock: ManualClock = ManualClock(),
        _ handler: @escaping StubTransport.Handler
    ) -> Setup {
        let metrics = TestMetrics()
        let transport = StubTransport(handler)
        let hedging = HedgingMiddleware(budget: budget, circuitBreaker: circuitBreaker, clock: clock, metricsFactory: metrics)
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport, middlewares: [hedging] + (circuitBreaker.map { [$0] } ?? [])))
        return Setup(client: client, transport: transport, clock: clock, metrics: metrics)
    }

    /// Attempt 1 waits at the gate (and fails if cancelled there); later attempts answer `later`.
    static func slowFirst(
        _ gate: TransportGate, cancelled: LockedState<Bool>, first: StubResponse = .status(.noContent), later: StubResponse
    )
        -> StubTransport.Handler
    {
        { request in
            guard request.attempt == 1 else { return later }
            await gate.wait()
            if Task.isCancelled {
                cancelled.withLock { $0 = true }
                throw CancellationError()
            }
            return first
        }
    }

    @Test("a first copy slower than the delay: the hedge answers and wins, the first copy is cancelled")
    func hedgeWins() async throws {
        let gate = TransportGate()
        let cancelled = LockedState(false)
        let setup = Self.setup(Self.slowFirst(gate, cancelled: cancelled, later: .text("from the hedge")))
        let call = Task { try await setup.client.send(Request<String>(path: "/items", options: Self.hedged().options)) }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(99))
        #expect(setup.transport.requests.count == 1)
        setup.clock.advance(by: .milliseconds(1))
        #expect(try await call.value == "from the hedge")
        #expect(setup.transport.requests.map(\.attempt) == [1, 2])
        #expect(cancelled.withLock { $0 })
        #expect(setup.metrics.counterTotal(label: "networkingkit_hedges_total") == 1)
    }

    @Test("a first copy that answers in time: no hedge, the timer stopped")
    func noHedgeWhenFast() async throws {
        let setup = Self.setup { _ in .status(.noContent) }
        try await setup.client.send(Self.hedged())
        #expect(setup.transport.requests.count == 1)
        // The race ends with its timer: nothing is left waiting on the clock.
        #expect(setup.clock.sleeperCount == 0)
        #expect(setup.metrics.counterTotal(label: "networkingkit_hedges_total") == 0)
    }

    @Test("a failure a retry could cure waits for the copy still on its way")
    func curableFailureWaits() async throws {
        let gate = TransportGate()
        let cancelled = LockedState(false)
        let setup = Self.setup(
            Self.slowFirst(gate, cancelled: cancelled, first: .text("slow but good"), later: .status(.serviceUnavailable)))
        let call = Task { try await setup.client.send(Request<String>(path: "/items", options: Self.hedged().options)) }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(100))
        await waitUntil { setup.transport.requests.count == 2 }
        gate.open()
        #expect(try await call.value == "slow but good")
        #expect(!cancelled.withLock { $0 })
    }

    @Test("not hedged: a POST without an Idempotency-Key, an endpoint that does not ask")
    func notHedged() async throws {
        // A delay of zero: a call that were hedged would send its second copy at once.
        var post = Self.hedged(method: .post)
        post.options.hedging = HedgingPolicy(delay: .fixed(.zero))
        for request in [post, Request<Void>(path: "/items")] {
            let gate = TransportGate()
            let setup = Self.setup { _ in
                await gate.wait()
                return .status(.noContent)
            }
            let call = Task { try await setup.client.send(request) }
            await waitUntil { gate.waitingCount == 1 }
            for _ in 0..<100 { await Task.yield() }
            #expect(gate.waitingCount == 1)
            gate.open()
            try await call.value
            #expect(setup.transport.requests.map(\.attempt) == [1])
        }
    }

    @Test("no hedge when the budget is spent or the circuit would refuse it")
    func budgetAndCircuit() async throws {
        let breakerClock = ManualClock()
        let breaker = CircuitBreaker(policy: CircuitBreaker.Policy(minimumCalls: 1), clock: breakerClock)
        for (budget, circuit) in [(RetryBudget(capacity: 0), nil), (nil, breaker)] as [(RetryBudget?, CircuitBreaker?)] {
            let gate = TransportGate()
            let setup = Self.setup(budget: budget, circuitBreaker: circuit) { request in
                if request.path.hasSuffix("/down") { return .status(.badGateway) }
                await gate.wait()
                return .status(.noContent)
            }
            if circuit != nil {
                // Another path of the same host opens the host's circuit; the slow call was let in before.
                let call = Task { try await setup.client.send(Self.hedged()) }
                await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
                _ = await networkError { try await setup.client.send(Request<Void>(path: "/down")) }
                #expect(breaker.state(forKey: "https://api.example.com") == .open)
                setup.clock.advance(by: .milliseconds(100))
                gate.open()
                try await call.value
            } else {
                let call = Task { try await setup.client.send(Self.hedged()) }
                await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
                setup.clock.advance(by: .milliseconds(100))
                gate.open()
                try await call.value
            }
            #expect(setup.transport.requests.filter { $0.path.hasSuffix("/items") }.count == 1)
            #expect(setup.metrics.counterTotal(label: "networkingkit_hedges_total") == 0)
        }
    }

    @Test("a copy refused before it was sent (the circuit opened meanwhile) does not beat the copy on its way")
    func refusedCopyDoesNotWin() async throws {
        let gate = TransportGate()
        let refusals = TestMetrics()
        let breaker = CircuitBreaker(policy: CircuitBreaker.Policy(minimumCalls: 1), clock: ManualClock(), metricsFactory: refusals)
        // The breaker is in the chain, inside hedging, and not given to it.
        let setup = Self.setup(circuitBreaker: nil) { request in
            if request.path.hasSuffix("/down") { return .status(.badGateway) }
            if request.attempt == 1 { await gate.wait() }
            return .text("from the first copy")
        }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: setup.transport, middlewares: [HedgingMiddleware(clock: setup.clock), breaker]))
        let call = Task { try await client.send(Request<String>(path: "/items", options: Self.hedged().options)) }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        _ = await networkError { try await client.send(Request<Void>(path: "/down")) }
        setup.clock.advance(by: .milliseconds(100))
        // The hedge is refused by the circuit; the first copy still wins once it answers.
        await waitUntil { refusals.counterTotal(label: "networkingkit_circuit_refusals_total") == 1 }
        gate.open()
        #expect(try await call.value == "from the first copy")
    }

    @Test("every copy failed: the server's answer (a 503) is the outcome, not a copy's local failure")
    func serverAnswerOverLocalFailure() async throws {
        let gate = TransportGate()
        let setup = Self.setup { request in
            if request.attempt == 1 {
                await gate.wait()
                return .transportFailure(.connectionRefused)
            }
            return .status(.serviceUnavailable)
        }
        let call = Task { await networkError { try await setup.client.send(Self.hedged()) } }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(100))
        await waitUntil { setup.transport.requests.count == 2 }
        gate.open()
        #expect(await call.value?.statusCode == 503)
    }

    @Test("the caller cancelled mid-race: every copy is cancelled, the call ends cancelled")
    func cancelledMidRace() async throws {
        let gate = TransportGate()
        let setup = Self.setup { _ in
            await gate.wait()
            try Task.checkCancellation()
            return .status(.noContent)
        }
        let call = Task { await networkError { try await setup.client.send(Self.hedged()) } }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(100))
        await waitUntil { gate.waitingCount == 2 }
        call.cancel()
        #expect(await call.value == .cancelled)
        #expect(gate.waitingCount == 0)
    }

    @Test("two hedges, one delay apart; the third copy answers")
    func twoHedges() async throws {
        let gate = TransportGate()
        let setup = Self.setup { request in
            guard request.attempt == 3 else {
                await gate.wait()
                throw CancellationError()
            }
            return .text("third")
        }
        var options = RequestOptions()
        options.hedging = HedgingPolicy(delay: .fixed(.milliseconds(100)), maxHedges: 2)
        let call = Task { try await setup.client.send(Request<String>(path: "/items", options: options)) }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(100))
        await waitUntil { gate.waitingCount == 2 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(100))
        #expect(try await call.value == "third")
        #expect(setup.transport.requests.map(\.attempt) == [1, 2, 3])
        #expect(setup.metrics.counterTotal(label: "networkingkit_hedges_total") == 2)
        #expect(HedgingPolicy(delay: .fixed(.zero), maxHedges: 100).maxHedges == HedgingPolicy.largestMaxHedges)
    }

    @Test("the budget: each hedge takes a retry's cost; a good answer of the first copy alone gives a refund, a 503 none")
    func budgetRefunds() async throws {
        let gate = TransportGate()
        let budget = RetryBudget(capacity: 10, retryCost: 5, successRefund: 1)
        let setup = Self.setup(budget: budget) { request in
            if request.path.hasSuffix("/busy") { return .status(.serviceUnavailable) }
            if request.path.hasSuffix("/slow"), request.attempt == 1 {
                await gate.wait()
                throw CancellationError()
            }
            return .status(.noContent)
        }
        let call = Task { try await setup.client.send(Self.hedged("/slow")) }
        await waitUntil { gate.waitingCount == 1 && setup.clock.sleeperCount == 1 }
        setup.clock.advance(by: .milliseconds(100))
        try await call.value
        #expect(budget.availableTokens == 5)
        try await setup.client.send(Self.hedged("/fast"))
        #expect(budget.availableTokens == 6)
        _ = await networkError { try await setup.client.send(Self.hedged("/busy")) }
        #expect(budget.availableTokens == 6)
    }

    @Test("the percentile delay: the fallback until 20 answers are known, then their 95th percentile")
    func percentileDelay() async throws {
        let clock = ManualClock()
        let gate = TransportGate()
        let answered = LockedState(0)
        let setup = Self.setup(clock: clock) { request in
            let number = answered.withLock { count -> Int in
                count += 1
                return count
            }
            // 20 answers of 10 ms; then a call that stalls until its hedge answers.
            if number <= 20 {
                clock.advance(by: .milliseconds(10))
            } else if request.attempt == 1 {
                await gate.wait()
                try Task.checkCancellation()
            }
            return .status(.noContent)
        }
        let request = Self.hedged(delay: .percentile(0.95, fallback: .seconds(1)))
        for _ in 0..<20 { try await setup.client.send(request) }
        #expect(setup.metrics.counterTotal(label: "networkingkit_hedges_total") == 0)
        let call = Task { try await setup.client.send(request) }
        await waitUntil { gate.waitingCount == 1 && clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(10))
        try await call.value
        #expect(setup.metrics.counterTotal(label: "networkingkit_hedges_total") == 1)
    }
}
