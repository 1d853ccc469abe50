import Benchmark
import Foundation
import HTTPTypes
import Logging
import NetworkingKit

// What the client and each middleware cost per call, over a transport that does no I/O.
//
// Each sample is 1,000 calls in one task (`scalingFactor: .kilo`); run with `--scale` to read
// every figure per call. Names have no spaces: the threshold files are named after them, and
// ordo-one/benchmark does not find a file for a name with a space. Compare each row with "raw_transport" (the same bytes sent and decoded by
// hand) in the same run: the difference is NetworkingKit's share. "client_pass_through" is what
// any middleware costs by being in the chain; the "no backend" rows are the observability
// middlewares in an app that bootstrapped nothing, and should cost no more than that.
/// The disk cache row's folder, emptied before and after the row.
let diskCacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-bench-disk-cache-\(getpid())")

/// A token that never expires, for the rows with authentication.
func benchmarkSession() -> TokenRefresher {
    TokenRefresher(store: InMemoryTokenStore(AuthToken(accessToken: "benchmark-token"))) { token in token }
}

/// A logger at info whose lines are thrown away: logging on, as an app runs it in production.
let infoLogger: Logger = {
    var logger = Logger(label: "benchmark") { _ in DiscardingLogHandler() }
    logger.logLevel = .info
    return logger
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 200,
        // CI fails when a row allocates more than this over Thresholds/ (per 1,000 calls: under
        // one allocation per call). Instructions are gated too where the machine counts them.
        thresholds: [
            .mallocCountTotal: .init(absolute: [.p90: 500]),
            .instructions: .init(relative: [.p90: 5]),
        ]
    )

    let transport = FixedResponseTransport()

    Benchmark("raw_transport") { benchmark in
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
        _ name: String, redirectPolicy: RedirectPolicy = .default, transport: FixedResponseTransport = transport,
        _ middlewares: @escaping @Sendable () -> [any Middleware]
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
    client("client_redirects_off", redirectPolicy: .disabled) { [] }
    client("client_pass_through") { [PassThroughMiddleware()] }
    client("client_logging_no_backend") { [LoggingMiddleware()] }
    client("client_metrics_no_backend") { [MetricsMiddleware()] }
    client("client_tracing_no_backend") { [TracingMiddleware()] }
    client("client_3_pass_throughs") { [PassThroughMiddleware(), PassThroughMiddleware(), PassThroughMiddleware()] }
    client("client_observability_no_backend") {
        [TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware()]
    }
    client("client_logging_debug_discarding") {
        [LoggingMiddleware(logger: Logger(label: "benchmark") { _ in DiscardingLogHandler() })]
    }
    // A fresh memory-cache hit, decoded: compare with raw_transport (a bare decode of the same body).
    client("client_cache_hit", transport: FixedResponseTransport(cacheControl: "max-age=3600")) {
        [HTTPCache(storage: MemoryCacheStorage())]
    }
    // POSTs through a disk cache holding 500 answers: each successful POST invalidates what is
    // stored for its URL (RFC 9111 §4.4), which the storage answers from its index instead of
    // listing its folder. Disk I/O, so compare it with itself across commits, not with the rows
    // above.
    Benchmark("client_post_disk_cache_500_entries", configuration: .init(maxIterations: 50)) {
        (benchmark: Benchmark, client: LiveAPIClient) in
        let post = Request<Film>(path: "/films/1", method: .post, body: .json(["rating": 9]))
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(post))
        }
    } setup: { () async throws -> LiveAPIClient in
        try? FileManager.default.removeItem(at: diskCacheFolder)
        let folder = diskCacheFolder
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: URL(string: "https://api.example.com/v1"),
                transport: FixedResponseTransport(cacheControl: "max-age=3600"),
                middlewares: [HTTPCache(storage: DiskCacheStorage(directory: folder))], decoder: JSONDecoder()))
        for id in 1...500 {
            _ = try await client.send(Request<Film>(path: "/films/\(id)"))
        }
        return client
    } teardown: {
        try? FileManager.default.removeItem(at: diskCacheFolder)
    }

    // Each resilience middleware alone, over answers marked no-store (as `netkit bench`'s nginx
    // serves them): what each costs a call the cache never answers.
    let noStore = FixedResponseTransport(cacheControl: "no-store")
    client("client_authentication", transport: noStore) { [AuthenticationMiddleware(tokenProvider: benchmarkSession())] }
    client("client_deduplication", transport: noStore) { [RequestDeduplicator()] }
    client("client_cache_miss_no_store", transport: noStore) { [HTTPCache(storage: MemoryCacheStorage())] }
    client("client_retry", transport: noStore) { [RetryMiddleware()] }
    client("client_logging_info", transport: noStore) { [LoggingMiddleware(logger: infoLogger)] }

    // `netkit bench`'s full stack, in process: logging at info to a discarding handler, answers
    // marked no-store. Compare with raw_transport for what the library costs per call.
    client("client_full_stack_logging_info", transport: noStore) {
        [
            TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware(logger: infoLogger),
            AuthenticationMiddleware(tokenProvider: benchmarkSession()),
            RequestDeduplicator(),
            HTTPCache(storage: MemoryCacheStorage()),
            RetryMiddleware(),
        ]
    }

    // The whole default order (ARCHITECTURE.md), every concern on, nothing bootstrapped.
    client("client_full_stack") {
        [
            TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware(),
            AuthenticationMiddleware(tokenProvider: benchmarkSession()),
            RequestDeduplicator(),
            HTTPCache(storage: MemoryCacheStorage()),
            RetryMiddleware(),
        ]
    }
}
