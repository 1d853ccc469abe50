import Foundation
import Logging
import MetricsTestKit
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// The circuit breaker on a stub transport, its time on a manual clock: every transition driven
/// by the test, none by waiting.
@Suite("Circuit breaker", .timeLimit(.minutes(5)))
struct CircuitBreakerTests {
    /// Whether the stub service fails (503) or answers (204), switched by the test.
    final class Service: Sendable {
        private let failing = LockedState(true)
        var isFailing: Bool {
            get { failing.withLock { $0 } }
            set { failing.withLock { $0 = newValue } }
        }
        var handler: StubTransport.Handler {
            { [self] _ in isFailing ? .status(.serviceUnavailable) : .status(.noContent) }
        }
    }

    struct Setup {
        let client: LiveAPIClient
        let transport: StubTransport
        let breaker: CircuitBreaker
        let clock: ManualClock
        let metrics: TestMetrics
        let logs: LogCapture
    }

    static func setup(
        policy: CircuitBreaker.Policy = .default, key: CircuitBreaker.Key = .host, retry: RetryMiddleware? = nil,
        clock: ManualClock = ManualClock(), _ handler: @escaping StubTransport.Handler
    ) -> Setup {
        let metrics = TestMetrics()
        let logs = LogCapture()
        let breaker = CircuitBreaker(policy: policy, key: key, clock: clock, metricsFactory: metrics)
        let transport = StubTransport(handler)
        var configuration = LiveAPIClient.Configuration(
            baseURL: testBaseURL, transport: transport, middlewares: (retry.map { [$0] } ?? []) + [breaker])
        configuration.logger = logs.logger(level: .info)
        return Setup(
            client: LiveAPIClient(configuration: configuration), transport: transport, breaker: breaker, clock: clock, metrics: metrics,
            logs: logs)
    }

    static func call(_ client: LiveAPIClient, _ path: String = "/items") async -> NetworkError? {
        await networkError { try await client.send(Request<Void>(path: path)) }
    }

    static func circuitOpen(_ error: NetworkError?) -> CircuitOpenFailure? {
        guard case .circuitOpen(let failure)? = error else { return nil }
        return failure
    }

    static let key = "https://api.example.com"

    @Test("closed, open at 50 % of 20 calls, refusing without sending; half-open after 5 s; closed by 3 good probes")
    func fullCycle() async throws {
        let service = Service()
        let setup = Self.setup(service.handler)
        #expect(testBaseURL.absoluteString.hasPrefix(Self.key))
        service.isFailing = false
        for _ in 0..<10 { #expect(await Self.call(setup.client) == nil) }
        service.isFailing = true
        for _ in 0..<9 { #expect(await Self.call(setup.client)?.statusCode == 503) }
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        // The 20th call: 10 failures of 20.
        #expect(await Self.call(setup.client)?.statusCode == 503)
        #expect(setup.breaker.state(forKey: Self.key) == .open)
        #expect(setup.transport.requests.count == 20)

        let refused = await Self.call(setup.client)
        let failure = try #require(Self.circuitOpen(refused))
        #expect(failure.key == Self.key)
        #expect(failure.retryAfter == .seconds(5))
        #expect(failure.request?.description.contains("/items") == true)
        #expect(refused?.localizedDescription == "The service is unavailable right now. Try again in 5 seconds.")
        setup.clock.advance(by: .milliseconds(4900))
        #expect(Self.circuitOpen(await Self.call(setup.client))?.retryAfter == .milliseconds(100))
        #expect(setup.transport.requests.count == 20)

        setup.clock.advance(by: .milliseconds(100))
        #expect(setup.breaker.state(forKey: Self.key) == .halfOpen)
        service.isFailing = false
        for _ in 0..<3 { #expect(await Self.call(setup.client) == nil) }
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        #expect(setup.transport.requests.count == 23)

        #expect(try setup.metrics.expectGauge("networkingkit_circuit_state", [("key", Self.key)]).values == [2, 1, 0])
        #expect(setup.metrics.counterTotal(label: "networkingkit_circuit_refusals_total", dimensions: [("key", Self.key)]) == 2)
        let opened = try #require(setup.logs.records("Circuit opened").first)
        #expect(opened.level == .warning)
        #expect(opened.metadata["calls"] == "20" && opened.metadata["failures"] == "10" && opened.metadata["circuit"] == Self.key)
        #expect(setup.logs.records("Circuit half-open: probing").count == 1)
        #expect(setup.logs.records("Circuit closed").count == 1)
    }

    @Test("a failed probe opens the circuit again, for the whole open time")
    func failedProbe() async throws {
        let service = Service()
        let setup = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 2), service.handler)
        for _ in 0..<2 { _ = await Self.call(setup.client) }
        #expect(setup.breaker.state(forKey: Self.key) == .open)
        setup.clock.advance(by: .seconds(5))
        #expect(await Self.call(setup.client)?.statusCode == 503)
        #expect(setup.breaker.state(forKey: Self.key) == .open)
        #expect(Self.circuitOpen(await Self.call(setup.client))?.retryAfter == .seconds(5))
        #expect(setup.transport.requests.count == 3)
    }

    @Test("half-open: only the probes go out, the others are refused with no time given; a cancelled probe frees its place")
    func probesInFlight() async throws {
        let gate = TransportGate()
        let service = Service()
        let setup = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 2, halfOpenProbes: 2)) { request in
            if request.path.hasSuffix("/held") {
                await gate.wait()
                try Task.checkCancellation()
            }
            return try await service.handler(request)
        }
        for _ in 0..<2 { _ = await Self.call(setup.client) }
        setup.clock.advance(by: .seconds(5))
        service.isFailing = false
        let probes = (0..<2).map { _ in Task { await Self.call(setup.client, "/held") } }
        await waitUntil { gate.waitingCount == 2 }
        let refused = try #require(Self.circuitOpen(await Self.call(setup.client)))
        #expect(refused.retryAfter == nil)
        #expect(Self.circuitOpen(await Self.call(setup.client))?.retryAfter == nil)
        #expect(setup.transport.requests.count == 4)
        // One probe cancelled: not counted, and its place goes to the next call.
        probes[0].cancel()
        #expect(await probes[0].value == .cancelled)
        #expect(await Self.call(setup.client) == nil)
        gate.open()
        #expect(await probes[1].value == nil)
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
    }

    @Test("the window forgets what is older than 30 s")
    func windowSlides() async throws {
        let service = Service()
        let setup = Self.setup(service.handler)
        for _ in 0..<19 { _ = await Self.call(setup.client) }
        setup.clock.advance(by: .seconds(31))
        _ = await Self.call(setup.client)
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        for _ in 0..<18 { _ = await Self.call(setup.client) }
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        _ = await Self.call(setup.client)
        #expect(setup.breaker.state(forKey: Self.key) == .open)
    }

    @Test("a slow call counts as a failure when the policy says so")
    func slowCalls() async throws {
        let clock = ManualClock()
        let setup = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 3, slowCallThreshold: .seconds(1)), clock: clock) { request in
            if request.path.hasSuffix("/slow") { clock.advance(by: .seconds(2)) }
            return .status(.noContent)
        }
        for _ in 0..<3 { #expect(await Self.call(setup.client, "/fast") == nil) }
        for _ in 0..<2 { #expect(await Self.call(setup.client, "/slow") == nil) }
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        // 3 slow of 6.
        #expect(await Self.call(setup.client, "/slow") == nil)
        #expect(setup.breaker.state(forKey: Self.key) == .open)
    }

    @Test(
        "what counts: transport failures, timeouts, 5xx and 429 fail; other 4xx succeed; cancellation is not counted",
        arguments: [
            (StubResponse.transportFailure(.connectionRefused), CircuitBreaker.Verdict.failure),
            (.failure(.timeout(nil)), .failure), (.status(.internalServerError), .failure), (.status(.tooManyRequests), .failure),
            (.status(.notFound), .success), (.status(.unauthorized), .success), (.status(.ok), .success),
            (.failure(.cancelled), .ignored),
        ])
    func classification(response: StubResponse, verdict: CircuitBreaker.Verdict) async throws {
        let verdicts = LockedState<[CircuitBreaker.Verdict]>([])
        let policy = CircuitBreaker.Policy { outcome in
            let verdict = CircuitBreaker.Policy.defaultClassification(outcome)
            verdicts.withLock { $0.append(verdict) }
            return verdict
        }
        let setup = Self.setup(policy: policy) { _ in response }
        _ = await Self.call(setup.client)
        #expect(verdicts.withLock { $0 } == [verdict])
    }

    @Test("the default classification of errors that are not answers")
    func errorClassification() {
        struct AppError: Error {}
        let cases: [(any Error, CircuitBreaker.Verdict)] = [
            (CancellationError(), .ignored), (URLError(.timedOut), .failure), (URLError(.cannotConnectToHost), .failure),
            (NetworkError.unknown(URLError(.networkConnectionLost)), .failure), (URLError(.cancelled), .ignored),
            (NetworkError.circuitOpen(CircuitOpenFailure(key: "k", retryAfter: nil)), .ignored),
            (NetworkError.invalidRequest(reason: "no"), .ignored), (AppError(), .ignored), (NetworkError.unknown(AppError()), .ignored),
            (NetworkError.responseTooLarge(limit: 1, request: nil), .success), (NetworkError.timeout(nil), .failure),
            (NetworkError.webSocket(WebSocketFailure(kind: .connectionLost)), .failure),
            (NetworkError.webSocket(WebSocketFailure(kind: .notUpgraded)), .success),
        ]
        for (error, verdict) in cases {
            #expect(CircuitBreaker.Policy.defaultClassification(.failure(error)) == verdict, "\(error)")
        }
    }

    @Test("a call cut off by its own deadline counts as a failure, though the breaker sees it cancelled")
    func callTimeoutCounts() async throws {
        let clock = ManualClock()
        let gate = TransportGate()
        let breaker = CircuitBreaker(policy: CircuitBreaker.Policy(minimumCalls: 1), clock: clock)
        var configuration = LiveAPIClient.Configuration(
            baseURL: testBaseURL,
            transport: StubTransport { _ in
                await gate.wait()
                try Task.checkCancellation()
                return .status(.noContent)
            }, middlewares: [breaker], callTimeout: .seconds(5))
        configuration.clock = clock
        let client = LiveAPIClient(configuration: configuration)
        let call = Task { await Self.call(client) }
        await waitUntil { gate.waitingCount == 1 }
        clock.advance(by: .seconds(5))
        #expect(await call.value == .timeout(nil))
        #expect(breaker.state(forKey: Self.key) == .open)
    }

    @Test("a threshold of 0 opens on the first failure, never on successes alone")
    func zeroThreshold() async throws {
        let service = Service()
        service.isFailing = false
        let setup = Self.setup(policy: CircuitBreaker.Policy(failureRateThreshold: 0, minimumCalls: 2), service.handler)
        for _ in 0..<30 { #expect(await Self.call(setup.client) == nil) }
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        service.isFailing = true
        _ = await Self.call(setup.client)
        #expect(setup.breaker.state(forKey: Self.key) == .open)
    }

    @Test("an outcome from an earlier state is not counted: a slow call let in while closed ends while half-open")
    func staleOutcome() async throws {
        let gate = TransportGate()
        let service = Service()
        let setup = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 2, halfOpenProbes: 2)) { request in
            if request.path.hasSuffix("/held") {
                await gate.wait()
                return .status(.noContent)
            }
            return try await service.handler(request)
        }
        let slow = Task { await Self.call(setup.client, "/held") }
        await waitUntil { gate.waitingCount == 1 }
        for _ in 0..<2 { _ = await Self.call(setup.client) }
        #expect(setup.breaker.state(forKey: Self.key) == .open)
        setup.clock.advance(by: .seconds(5))
        service.isFailing = false
        #expect(await Self.call(setup.client) == nil)
        gate.open()
        #expect(await slow.value == nil)
        // Had the slow call counted, this would be the second success, closing the circuit.
        #expect(setup.breaker.state(forKey: Self.key) == .halfOpen)
        #expect(await Self.call(setup.client) == nil)
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
    }

    @Test("a probe unanswered after the open time gives its place to another; its late outcome is not counted")
    func probeLease() async throws {
        let gate = TransportGate()
        let service = Service()
        let setup = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 2, halfOpenProbes: 1)) { request in
            if request.path.hasSuffix("/held") {
                await gate.wait()
                return .status(.badGateway)
            }
            return try await service.handler(request)
        }
        for _ in 0..<2 { _ = await Self.call(setup.client) }
        setup.clock.advance(by: .seconds(5))
        let stuck = Task { await Self.call(setup.client, "/held") }
        await waitUntil { gate.waitingCount == 1 }
        #expect(Self.circuitOpen(await Self.call(setup.client)) != nil)
        setup.clock.advance(by: .seconds(5))
        service.isFailing = false
        #expect(await Self.call(setup.client) == nil)
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
        gate.open()
        #expect(await stuck.value?.statusCode == 502)
        #expect(setup.breaker.state(forKey: Self.key) == .closed)
    }

    @Test("a circuit per host: one failing host does not cut off another; keys of the app's own")
    func keys() async throws {
        let setup = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 2)) { request in
            request.url?.host == "down.example" ? .status(.badGateway) : .status(.noContent)
        }
        for _ in 0..<2 { _ = await Self.call(setup.client, "https://down.example/x") }
        #expect(Self.circuitOpen(await Self.call(setup.client, "https://down.example/y"))?.key == "https://down.example")
        #expect(await Self.call(setup.client, "https://up.example/x") == nil)
        #expect(await Self.call(setup.client) == nil)

        let byPath = Self.setup(policy: CircuitBreaker.Policy(minimumCalls: 2), key: .custom { request, _ in request.path ?? "" }) {
            request in request.path.hasSuffix("/bad") ? .status(.badGateway) : .status(.noContent)
        }
        for _ in 0..<2 { _ = await Self.call(byPath.client, "/bad") }
        #expect(Self.circuitOpen(await Self.call(byPath.client, "/bad"))?.key == "/v1/bad")
        #expect(await Self.call(byPath.client, "/good") == nil)
    }

    @Test("retries stop when the circuit would refuse the next attempt, without waiting or spending the budget; a refusal is not retried")
    func withRetries() async throws {
        let breakerClock = ManualClock()
        let retryClock = ImmediateClock()
        let budget = RetryBudget()
        let breaker = CircuitBreaker(policy: CircuitBreaker.Policy(minimumCalls: 2), clock: breakerClock)
        let retry = RetryMiddleware(
            policy: RetryPolicy(maxAttempts: 5, jitter: .none), budget: budget, clock: retryClock, circuitBreaker: breaker)
        let transport = StubTransport { _ in .status(.serviceUnavailable) }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport, middlewares: [retry, breaker]))
        // Attempt 1 fails, a retry after 0.5 s; attempt 2 fails and opens the circuit: no third.
        #expect(await Self.call(client)?.statusCode == 503)
        #expect(transport.requests.count == 2)
        #expect(retryClock.sleeps == [.milliseconds(500)])
        #expect(budget.availableTokens == 95)
        // Refused at once, not retried, no token spent.
        #expect(Self.circuitOpen(await Self.call(client)) != nil)
        #expect(transport.requests.count == 2)
        #expect(retryClock.sleeps.count == 1)
        #expect(budget.availableTokens == 95)
    }

    @Test("NetworkError.circuitOpen: equal by key, described for developers, named for metrics")
    func error() {
        let error = NetworkError.circuitOpen(CircuitOpenFailure(key: "https://a.example", retryAfter: .milliseconds(1500)))
        #expect(error == .circuitOpen(CircuitOpenFailure(key: "https://a.example", retryAfter: nil)))
        #expect(error != .circuitOpen(CircuitOpenFailure(key: "https://b.example", retryAfter: nil)))
        #expect(error.description == "circuit open for 'https://a.example': a probe in 1.5 s")
        #expect(error.localizedDescription == "The service is unavailable right now. Try again in 2 seconds.")
        let probing = NetworkError.circuitOpen(CircuitOpenFailure(key: "k", retryAfter: nil))
        #expect(probing.localizedDescription == "The service is unavailable right now. Please try again in a moment.")
    }
}
