import Foundation
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Call plan: each call's values decided once")
struct CallPlanTests {
    private static let apiKey = HTTPField.Name("X-API-Key")!
    private static let clientPolicy = RedirectPolicy(maxRedirects: 2, sensitiveHeaders: [apiKey])

    @Test("an endpoint that sets nothing gets the client's values")
    func clientValues() {
        let plan = CallPlan(
            resolving: RequestOptions(), timeout: .seconds(7), responseBodyLimit: 1_000, redirectPolicy: Self.clientPolicy,
            streamsResponseBody: false)
        #expect(plan == CallPlan(timeout: .seconds(7), responseBodyLimit: 1_000, redirectPolicy: Self.clientPolicy))
    }

    @Test("what an endpoint sets wins, and the client's sensitive headers stay sensitive")
    func endpointValues() {
        var options = RequestOptions(timeout: .seconds(3), maxResponseBodySize: 50)
        options.redirectPolicy.maxRedirects = 9
        let plan = CallPlan(
            resolving: options, timeout: .seconds(7), responseBodyLimit: 1_000, redirectPolicy: Self.clientPolicy,
            streamsResponseBody: false)
        #expect(plan.timeout == .seconds(3))
        #expect(plan.responseBodyLimit == 50)
        #expect(plan.redirectPolicy.maxRedirects == 9)
        #expect(plan.redirectPolicy.sensitiveHeaders == [Self.apiKey])
    }

    @Test("an endpoint's .disabled follows no redirect whatever the client's policy")
    func disabledRedirects() {
        let plan = CallPlan(
            resolving: RequestOptions(redirectPolicy: .disabled), redirectPolicy: Self.clientPolicy, streamsResponseBody: false)
        #expect(plan.redirectPolicy.maxRedirects == 0)
    }

    @Test("a streamed answer has no size limit unless its endpoint sets one; nil in a plan means none")
    func streamedLimit() {
        let unlimited = CallPlan(resolving: RequestOptions(), responseBodyLimit: 1_000, streamsResponseBody: true)
        #expect(unlimited.responseBodyLimit == nil)
        #expect(unlimited.streamsResponseBody)
        let limited = CallPlan(
            resolving: RequestOptions(maxResponseBodySize: 10), responseBodyLimit: 1_000, streamsResponseBody: true)
        #expect(limited.responseBodyLimit == 10)
    }

    @Test("a context made without a client resolves its options against a client's defaults")
    func handMadeContext() {
        let context = RequestContext(
            options: RequestOptions(timeout: .seconds(2)), requestID: "id", logger: Logger(label: "test"))
        #expect(context.plan.timeout == .seconds(2))
        #expect(context.plan.responseBodyLimit == LiveAPIClient.Configuration.defaultMaxResponseBodySize)
        #expect(context.plan.redirectPolicy == .default)
        #expect(!context.plan.streamsResponseBody)
    }

    @Test("the plan a middleware reads is the one the client decided, for response and bytes alike")
    func planReachesMiddlewares() async throws {
        let plans = LockedState<[CallPlan]>([])
        struct Recorder: Middleware {
            let plans: LockedState<[CallPlan]>
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                plans.withLock { $0.append(context.plan) }
                return try await next(request, body, context)
            }
        }
        let transport = StubTransport { _ in .json("{}") }
        var configuration = LiveAPIClient.Configuration(
            baseURL: URL(string: "https://api.example.com")!, transport: transport, middlewares: [Recorder(plans: plans)])
        configuration.maxResponseBodySize = 4_096
        configuration.redirectPolicy = Self.clientPolicy
        let client = LiveAPIClient(configuration: configuration)
        _ = try await client.response(Request<EmptyResponse>(path: "/films"))
        _ = try await client.bytes(Request<Data>(path: "/films"))
        let recorded = plans.withLock { $0 }
        #expect(recorded.map(\.responseBodyLimit) == [4_096, nil])
        #expect(recorded.map(\.streamsResponseBody) == [false, true])
        #expect(recorded.allSatisfy { $0.redirectPolicy == Self.clientPolicy && $0.timeout == CallPlan.defaultTimeout })
    }
}
