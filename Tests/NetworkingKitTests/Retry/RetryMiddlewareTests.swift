import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// The retry middleware on a stub transport, waiting on an immediate clock: exact and instant.
@Suite("Retry middleware", .timeLimit(.minutes(5)))
struct RetryMiddlewareTests {
    /// A client retrying by `policy` (no jitter unless given) over `handler`.
    static func client(
        policy: RetryPolicy = RetryPolicy(jitter: .none),
        budget: RetryBudget? = nil,
        callTimeout: Duration? = nil,
        clock: ImmediateClock = ImmediateClock(),
        _ handler: @escaping StubTransport.Handler
    ) -> (LiveAPIClient, StubTransport) {
        let transport = StubTransport(handler)
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport,
                middlewares: [RetryMiddleware(policy: policy, budget: budget, clock: clock, random: { 0.5 })],
                callTimeout: callTimeout))
        return (client, transport)
    }

    /// Fails with `status` for the first `failures` attempts, then answers 200.
    static func failing(_ failures: Int, with status: HTTPResponse.Status, headers: [String: String] = [:])
        -> StubTransport.Handler
    {
        { request in
            request.attempt <= failures ? .status(status, headers: headers) : .json(#"{"ok":true}"#)
        }
    }

    struct OK: Decodable, Sendable, Equatable {
        let ok: Bool
    }

    @Test("503, 503, then 200: one call, three attempts, waits of 0.5 and 1 s")
    func recovers() async throws {
        let clock = ImmediateClock()
        let (client, transport) = Self.client(clock: clock, Self.failing(2, with: .serviceUnavailable))
        let value: OK = try await client.send(Request(path: "/flaky"))
        #expect(value == OK(ok: true))
        #expect(transport.requests.map(\.attempt) == [1, 2, 3])
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
    }

    @Test("every retryable status is retried; other 4xx are not", arguments: [408, 429, 500, 502, 503, 504, 400, 401, 403, 404, 409, 422])
    func statuses(code: Int) async throws {
        let (client, transport) = Self.client(Self.failing(1, with: HTTPResponse.Status(code: code)))
        let error = await networkError { let _: OK = try await client.send(Request(path: "/x")) }
        let retryable = [408, 429, 500, 502, 503, 504].contains(code)
        #expect(transport.requests.count == (retryable ? 2 : 1))
        #expect((error == nil) == retryable)
    }

    @Test("the last failure is returned once the attempts run out")
    func exhausted() async throws {
        let clock = ImmediateClock()
        let (client, transport) = Self.client(clock: clock, Self.failing(10, with: .badGateway))
        let error = await networkError { let _: OK = try await client.send(Request(path: "/down")) }
        #expect(error?.statusCode == 502)
        #expect(transport.requests.count == 3)
        #expect(clock.sleeps.count == 2)
    }

    @Test("Retry-After in seconds replaces the backoff")
    func retryAfterSeconds() async throws {
        let clock = ImmediateClock()
        let (client, _) = Self.client(clock: clock, Self.failing(1, with: .tooManyRequests, headers: ["Retry-After": "3"]))
        let _: OK = try await client.send(Request(path: "/limited"))
        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test("Retry-After as an HTTP date replaces the backoff")
    func retryAfterDate() async throws {
        let clock = ImmediateClock()
        let date = HTTPDate.format(Date().addingTimeInterval(5))
        let (client, _) = Self.client(clock: clock, Self.failing(1, with: .serviceUnavailable, headers: ["Retry-After": date]))
        let _: OK = try await client.send(Request(path: "/busy"))
        let slept = try #require(clock.sleeps.first)
        #expect(slept > .seconds(3) && slept <= .seconds(5))
    }

    @Test("a Retry-After beyond the cap fails fast with the rate-limit error that carries it")
    func retryAfterOverCap() async throws {
        let clock = ImmediateClock()
        let (client, transport) = Self.client(
            clock: clock, Self.failing(1, with: .tooManyRequests, headers: ["Retry-After": "3600"]))
        let error = await networkError { let _: OK = try await client.send(Request(path: "/limited")) }
        guard case .rateLimited(_, let retryAfter)? = error else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(retryAfter == .seconds(3600))
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("POST is not retried without an Idempotency-Key, and is with one")
    func post() async throws {
        let (client, transport) = Self.client(Self.failing(1, with: .serviceUnavailable))
        let plain = await networkError {
            let _: OK = try await client.send(Request(path: "/orders", method: .post, body: .json(["id": 1])))
        }
        #expect(plain?.statusCode == 503)
        #expect(transport.requests.count == 1)

        let (keyedClient, keyedTransport) = Self.client(Self.failing(1, with: .serviceUnavailable))
        let _: OK = try await keyedClient.send(
            Request(path: "/orders", method: .post, headers: ["Idempotency-Key": "order-42"], body: .json(["id": 1])))
        #expect(keyedTransport.requests.count == 2)
        #expect(keyedTransport.requests.map(\.bodyText) == [#"{"id":1}"#, #"{"id":1}"#])
    }

    @Test("a one-shot streamed body is never sent twice")
    func oneShotBody() async throws {
        let (client, transport) = Self.client(Self.failing(1, with: .serviceUnavailable))
        let stream = HTTPBody(
            CountingChunks(chunkSize: 3, chunkCount: 1, pulled: Counter()), length: .known(3), iterationBehavior: .single)
        let error = await networkError { let _: OK = try await client.send(Request(path: "/upload", method: .put, body: .stream(stream))) }
        #expect(error?.statusCode == 503)
        #expect(transport.requests.count == 1)
    }

    @Test("transient transport failures are retried; a bad TLS or bad HTTP is not")
    func transportFailures() async throws {
        for (kind, retried) in [
            (TransportFailure.Kind.connectionLost, true), (.connectionRefused, true), (.hostNotFound, true),
            (.notConnected, true), (.secureConnectionFailed, false), (.invalidResponse, false),
        ] {
            let (client, transport) = Self.client { request in
                if request.attempt == 1 { throw NetworkError.transport(TransportFailure(kind: kind)) }
                return .json(#"{"ok":true}"#)
            }
            let error = await networkError { let _: OK = try await client.send(Request(path: "/x")) }
            #expect(transport.requests.count == (retried ? 2 : 1), "\(kind)")
            #expect((error == nil) == retried, "\(kind)")
        }
    }

    @Test("the budget stops retries when spent, and successes earn them back")
    func budget() async throws {
        let budget = RetryBudget(capacity: 10, retryCost: 5, successRefund: 1)
        let (client, transport) = Self.client(budget: budget) { request in
            request.path.hasSuffix("/ok") ? .json(#"{"ok":true}"#) : .status(.serviceUnavailable)
        }
        _ = await networkError { let _: OK = try await client.send(Request(path: "/down")) }
        #expect(transport.requests.count == 3)
        #expect(budget.availableTokens == 0)
        _ = await networkError { let _: OK = try await client.send(Request(path: "/down")) }
        #expect(transport.requests.count == 4, "no token left: no retry")

        for _ in 0..<5 {
            let _: OK = try await client.send(Request(path: "/ok"))
        }
        #expect(budget.availableTokens == 5)
        _ = await networkError { let _: OK = try await client.send(Request(path: "/down")) }
        #expect(transport.requests.count == 9 + 2, "one retry earned back")
    }

    @Test("a rate limit that fails fast earns no budget back")
    func failFastEarnsNothing() async throws {
        let budget = RetryBudget(capacity: 10, retryCost: 5, successRefund: 1)
        _ = budget.withdrawForRetry()
        let (client, _) = Self.client(budget: budget, Self.failing(1, with: .tooManyRequests, headers: ["Retry-After": "3600"]))
        _ = await networkError { let _: OK = try await client.send(Request(path: "/limited")) }
        #expect(budget.availableTokens == 5)
    }

    @Test("attempts raised by an outer middleware (an authentication replay) do not use up the retries")
    func outerAttemptsDoNotCount() async throws {
        struct Replaying: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                var context = context
                context.attempt += 1
                return try await next(request, body, context)
            }
        }
        let clock = ImmediateClock()
        let transport = StubTransport(Self.failing(10, with: .serviceUnavailable))
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport,
                middlewares: [Replaying(), RetryMiddleware(policy: RetryPolicy(jitter: .none), budget: nil, clock: clock)]))
        let error = await networkError { let _: OK = try await client.send(Request(path: "/x")) }
        #expect(error?.statusCode == 503)
        #expect(transport.requests.map(\.attempt) == [2, 3, 4])
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
    }

    @Test("an endpoint's own policy wins")
    func endpointOverride() async throws {
        let (client, transport) = Self.client(Self.failing(5, with: .serviceUnavailable))
        var options = RequestOptions()
        options.retryPolicy = .disabled
        let error = await networkError { try await client.request(TestEndpoint(path: "/x", options: options)) }
        #expect(error?.statusCode == 503)
        #expect(transport.requests.count == 1)
    }

    @Test("a payment marked .disabled is sent once, idempotency key or not; the default inherits the middleware's policy")
    func disabledIsNeverRetried() async throws {
        // `options.retryPolicy = .none` once compiled to "not set" and the payment went out 3 times;
        // the option is no longer optional, so `.disabled` is the only way to say it.
        #expect(RequestOptions().retryPolicyOverride == nil)
        #expect(RetryPolicy.disabled.maxAttempts == 1)
        let (client, transport) = Self.client(Self.failing(5, with: .serviceUnavailable))
        var payment = RequestOptions()
        payment.retryPolicy = .disabled
        payment.isIdempotent = true
        let error = await networkError {
            try await client.request(
                TestEndpoint(path: "/payments", method: .post, headers: ["Idempotency-Key": "k1"], options: payment))
        }
        #expect(error?.statusCode == 503)
        #expect(transport.requests.count == 1)

        // Changing a field of the policy an endpoint reads makes a policy of its own, never a
        // silent no-op.
        var edited = RequestOptions()
        edited.retryPolicy.maxAttempts = 1
        #expect(edited.retryPolicyOverride?.maxAttempts == 1)
        let (editedClient, editedTransport) = Self.client(Self.failing(5, with: .serviceUnavailable))
        _ = await networkError { try await editedClient.request(TestEndpoint(path: "/films", options: edited)) }
        #expect(editedTransport.requests.count == 1)
        var redirects = RequestOptions()
        redirects.redirectPolicy.maxRedirects = 0
        #expect(redirects.redirectPolicyOverride?.maxRedirects == 0)

        let (inheriting, inheritingTransport) = Self.client(Self.failing(5, with: .serviceUnavailable))
        _ = await networkError { try await inheriting.request(TestEndpoint(path: "/x", options: RequestOptions())) }
        #expect(inheritingTransport.requests.count == 3)
    }

    @Test("a retry that would wait past the call's deadline is not made")
    func deadline() async throws {
        let (client, transport) = Self.client(
            policy: RetryPolicy(baseDelay: .seconds(30), jitter: .none), callTimeout: .seconds(10),
            Self.failing(1, with: .serviceUnavailable))
        let error = await networkError { let _: OK = try await client.send(Request(path: "/x")) }
        #expect(error?.statusCode == 503)
        #expect(transport.requests.count == 1)
    }

    @Test("cancelling during a backoff wait ends the call at once as cancelled, without another attempt")
    func cancelDuringBackoff() async throws {
        let (attempted, signal) = AsyncStream<Void>.makeStream()
        let transport = StubTransport { _ in
            signal.yield()
            return .status(.serviceUnavailable)
        }
        // A real clock and a long wait: only cancellation can end it.
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport,
                middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .seconds(600), jitter: .none))]))
        let task = Task { try await client.send(Request<Void>(path: "/x")) }
        for await _ in attempted { break }
        task.cancel()
        let error = await networkError { try await task.value }
        guard case .cancelled? = error else {
            Issue.record("expected cancelled, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.count == 1)
    }

    @Test("withRetry retries what the policy retries, and nothing else")
    func freeFunction() async throws {
        let clock = ImmediateClock()
        let calls = Counter()
        let value = try await withRetry(policy: RetryPolicy(jitter: .none), clock: clock) {
            calls.increment()
            if calls.value < 3 { throw NetworkError.transport(TransportFailure(kind: .connectionLost)) }
            return 42
        }
        #expect(value == 42)
        #expect(calls.value == 3)
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])

        let notFound = Counter()
        let error = await networkError {
            _ = try await withRetry(policy: .default, clock: clock) { () async throws -> Int in
                notFound.increment()
                throw NetworkError.invalidRequest(reason: "no")
            }
        }
        #expect(error != nil)
        #expect(notFound.value == 1)
    }
}
