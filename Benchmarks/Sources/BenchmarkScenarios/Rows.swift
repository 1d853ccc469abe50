import Foundation
import HTTPTypes
import Logging
import NetworkingKit

/// The in-memory rows: the client and each middleware over a transport that does no I/O, and the
/// raw row to compare them with. ClientOverhead times them and counts their allocations;
/// InstructionCounts counts their instructions under callgrind. Names have no spaces: the
/// threshold files are named after them.
public enum Rows {
    /// The call every client row repeats.
    public static let filmRequest = Request<Film>(path: "/films/1")

    /// The raw row's name: the same bytes sent and decoded by hand, what a call costs without
    /// NetworkingKit.
    public static let raw = "raw_transport"

    /// The client rows in the order they are reported. Each makes its client once, before
    /// measuring.
    public static let clients: [ClientRow] = {
        let transport = FixedResponseTransport()
        // Answers marked no-store (as `netkit bench`'s nginx serves them): what each resilience
        // middleware costs a call the cache never answers.
        let noStore = FixedResponseTransport(cacheControl: "no-store")
        return [
            ClientRow("client", transport) { [] },
            ClientRow("client_redirects_off", transport, redirectPolicy: .disabled) { [] },
            ClientRow("client_pass_through", transport) { [PassThroughMiddleware()] },
            ClientRow("client_logging_no_backend", transport) { [LoggingMiddleware()] },
            ClientRow("client_metrics_no_backend", transport) { [MetricsMiddleware()] },
            ClientRow("client_tracing_no_backend", transport) { [TracingMiddleware()] },
            ClientRow("client_3_pass_throughs", transport) {
                [PassThroughMiddleware(), PassThroughMiddleware(), PassThroughMiddleware()]
            },
            ClientRow("client_observability_no_backend", transport) {
                [TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware()]
            },
            ClientRow("client_logging_debug_discarding", transport) {
                [LoggingMiddleware(logger: Logger(label: "benchmark") { _ in DiscardingLogHandler() })]
            },
            // A fresh memory-cache hit, decoded: compare with raw_transport (a bare decode of the
            // same body).
            ClientRow("client_cache_hit", FixedResponseTransport(cacheControl: "max-age=3600")) {
                [HTTPCache(storage: MemoryCacheStorage())]
            },
            ClientRow("client_authentication", noStore) { [AuthenticationMiddleware(tokenProvider: benchmarkSession())] },
            ClientRow("client_deduplication", noStore) { [RequestDeduplicator()] },
            ClientRow("client_cache_miss_no_store", noStore) { [HTTPCache(storage: MemoryCacheStorage())] },
            ClientRow("client_retry", noStore) { [RetryMiddleware()] },
            ClientRow("client_logging_info", noStore) { [LoggingMiddleware(logger: infoLogger)] },
            // `netkit bench`'s full stack, in process: logging at info to a discarding handler,
            // answers marked no-store. Compare with raw_transport for what the library costs per call.
            ClientRow("client_full_stack_logging_info", noStore) { fullStack(logger: infoLogger) },
            // The whole default order (ARCHITECTURE.md), every concern on, nothing bootstrapped.
            ClientRow("client_full_stack", transport) { fullStack(logger: nil) },
        ]
    }()

    /// The whole default order (ARCHITECTURE.md): logging, metrics and tracing with no backend
    /// bootstrapped, logging to `logger` (or nowhere), authentication, de-duplication, a memory
    /// cache and retry.
    public static func fullStack(logger: Logger?) -> [any Middleware] {
        [
            TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware(logger: logger),
            AuthenticationMiddleware(tokenProvider: benchmarkSession()),
            RequestDeduplicator(),
            HTTPCache(storage: MemoryCacheStorage()),
            RetryMiddleware(),
        ]
    }

    /// A token that never expires, for the rows with authentication.
    public static func benchmarkSession() -> TokenRefresher {
        TokenRefresher(store: InMemoryTokenStore(AuthToken(accessToken: "benchmark-token"))) { token in token }
    }

    /// A logger at info whose lines are thrown away: logging on, as an app runs it in production.
    public static let infoLogger: Logger = {
        var logger = Logger(label: "benchmark") { _ in DiscardingLogHandler() }
        logger.logLevel = .info
        return logger
    }()
}

/// One client row: a name, and the client it measures.
public struct ClientRow: Sendable {
    public let name: String
    private let transport: FixedResponseTransport
    private let redirectPolicy: RedirectPolicy
    private let middlewares: @Sendable () -> [any Middleware]

    init(
        _ name: String, _ transport: FixedResponseTransport, redirectPolicy: RedirectPolicy = .default,
        middlewares: @escaping @Sendable () -> [any Middleware]
    ) {
        self.name = name
        self.transport = transport
        self.redirectPolicy = redirectPolicy
        self.middlewares = middlewares
    }

    /// A new client with this row's transport and middlewares.
    public func makeClient() -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: URL(string: "https://api.example.com/v1"), transport: transport, middlewares: middlewares(),
                // The raw row's decoder: the default one converts snake_case keys, which is
                // decoding work, not the client's.
                decoder: JSONDecoder(), redirectPolicy: redirectPolicy))
    }
}

/// The raw row's call: the request sent to the transport, the body read and decoded by hand.
public struct RawTransportCall {
    private let transport = FixedResponseTransport()
    private let decoder = JSONDecoder()
    private let context = RequestContext(
        options: RequestOptions(), requestID: "benchmark", logger: Logger(label: "benchmark") { _ in SwiftLogNoOpLogHandler() })

    public init() {}

    public func callAsFunction() async throws -> Film {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/v1/films/1")
        let (_, body) = try await transport.send(request, body: nil, context: context)
        let data = try await body?.collect(upTo: 1 << 20) ?? Data()
        return try decoder.decode(Film.self, from: data)
    }
}
