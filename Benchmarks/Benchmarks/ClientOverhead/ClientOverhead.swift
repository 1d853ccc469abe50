import Benchmark
import Foundation
import HTTPTypes
import Logging
import NetworkingKit

// What the client and each middleware cost per call, over a transport that does no I/O.
//
// Each sample is 1,000 calls in one task (`scalingFactor: .kilo`); run with `--scale` to read
// every figure per call. Compare each row with "raw transport" (the same bytes sent and decoded by
// hand) in the same run: the difference is NetworkingKit's share. "client + pass-through" is what
// any middleware costs by being in the chain; the "no backend" rows are the observability
// middlewares in an app that bootstrapped nothing, and should cost no more than that.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 200
    )

    let transport = FixedResponseTransport()

    Benchmark("raw transport") { benchmark in
        let decoder = JSONDecoder()
        let context = RequestContext(
            options: RequestOptions(), requestID: "benchmark", logger: Logger(label: "benchmark") { _ in SwiftLogNoOpLogHandler() })
        for _ in benchmark.scaledIterations {
            let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/v1/films/1")
            let (_, body) = try await transport.send(request, body: nil, context: context)
            let data = try await body?.collect(upTo: 1 << 20) ?? Data()
            blackHole(try decoder.decode(Film.self, from: data))
        }
    }

    /// One benchmark of `LiveAPIClient.send` with `middlewares`; the client is built before the
    /// measurement starts.
    func client(
        _ name: String, redirectPolicy: RedirectPolicy = .default, _ middlewares: @escaping @Sendable () -> [any Middleware]
    ) {
        Benchmark(name) { benchmark, client in
            let request = Request<Film>(path: "/films/1")
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(request))
            }
        } setup: {
            LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: URL(string: "https://api.example.com/v1"), transport: transport, middlewares: middlewares(),
                    // The raw row's decoder: the default one converts snake_case keys, which is
                    // decoding work, not the client's.
                    decoder: JSONDecoder(), redirectPolicy: redirectPolicy))
        }
    }

    client("client") { [] }
    client("client, redirects off", redirectPolicy: .disabled) { [] }
    client("client + pass-through") { [PassThroughMiddleware()] }
    client("client + logging, no backend") { [LoggingMiddleware()] }
    client("client + metrics, no backend") { [MetricsMiddleware()] }
    client("client + tracing, no backend") { [TracingMiddleware()] }
    client("client + 3 pass-throughs") { [PassThroughMiddleware(), PassThroughMiddleware(), PassThroughMiddleware()] }
    client("client + logging, metrics, tracing, no backend") {
        [TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware()]
    }
    client("client + logging at debug, to a discarding handler") {
        [LoggingMiddleware(logger: Logger(label: "benchmark") { _ in DiscardingLogHandler() })]
    }
    // The whole default order (ARCHITECTURE.md), every concern on, nothing bootstrapped.
    client("client + full stack") {
        let session = TokenRefresher(store: InMemoryTokenStore(AuthToken(accessToken: "benchmark-token"))) { token in token }
        return [
            TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware(),
            AuthenticationMiddleware(tokenProvider: session),
            RequestDeduplicator(),
            HTTPCache(storage: MemoryCacheStorage()),
            RetryMiddleware(),
        ]
    }
}
