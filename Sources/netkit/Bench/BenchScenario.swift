#if DemoAPI
import AsyncHTTPClient
import ExampleServices
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HTTPTypesFoundation
import Logging
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One way of getting a todo from DemoAPI: by hand over the bare transport, or through the client
/// with more and more of the library in the chain. Every scenario checks and decodes the answer.
struct BenchScenario: Sendable {
    let name: String
    /// Makes request number `index` (see ``BenchAnswer/target(_:)``) and decodes its answer.
    let fetch: @Sendable (_ index: Int) async throws -> Void

    /// The scenarios over `choice`: first the library itself used directly (raw AsyncHTTPClient
    /// or raw URLSession, what an app without NetworkingKit writes), the baseline the others are
    /// compared to; then the bare transport, the client, and the client with more of the chain.
    static func all(
        baseURL: URL, choice: TransportChoice, answer: BenchAnswer = .small, breakdown: Bool = false
    ) -> [BenchScenario] {
        switch answer {
        case .small: all(TodoDTO.self, baseURL: baseURL, choice: choice, answer: answer, breakdown: breakdown)
        case .medium: all([TodoDTO].self, baseURL: baseURL, choice: choice, answer: answer, breakdown: breakdown)
        }
    }

    private static func all<Answer: Decodable & Sendable>(
        _ type: Answer.Type, baseURL: URL, choice: TransportChoice, answer: BenchAnswer, breakdown: Bool
    ) -> [BenchScenario] {
        let transport = choice.transport
        let shape = Shape<Answer>(baseURL: baseURL, answer: answer)
        return [
            // NIOTransport is measured against raw AsyncHTTPClient, the fastest client it replaces.
            choice == .urlsession ? rawURLSession(shape) : rawAsyncHTTPClient(shape),
            bareTransport(shape, transport: transport),
            client("client", shape, transport: transport, middlewares: []),
            client(
                "client + logging, metrics, tracing (no backend)", shape, transport: transport,
                middlewares: observability()),
            client(
                "client + full stack, logging at info", shape, transport: transport,
                middlewares: observability(logger: infoLogger) + resilience(), logger: infoLogger),
            // What an app gets: the same, decoded by the client's default decoder.
            client(
                "client + full stack, FastJSONDecoder", shape, transport: transport,
                middlewares: observability(logger: infoLogger) + resilience(), logger: infoLogger,
                decoder: FastJSONDecoder()),
        ]
            + (breakdown ? fullStackWithoutEach(shape, transport: transport) : [])
    }

    /// What every scenario of a run asks for and where; each decodes its answer as `Answer`.
    private struct Shape<Answer: Decodable & Sendable>: Sendable {
        let baseURL: URL
        let answer: BenchAnswer
    }

    /// The full stack with one of its parts left out in turn, so that what each costs shows as
    /// the difference to the full stack (`--breakdown`).
    private static func fullStackWithoutEach<Answer>(_ shape: Shape<Answer>, transport: any HTTPTransport) -> [BenchScenario] {
        let parts: [(name: String, middleware: any Middleware)] =
            observability(logger: infoLogger).map { ("\(type(of: $0))", $0) }
            + resilience().map { ("\(type(of: $0))", $0) }
        return parts.indices.map { left in
            client(
                "full stack without \(parts[left].name)", shape, transport: transport,
                middlewares: parts.indices.filter { $0 != left }.map { parts[$0].middleware }, logger: infoLogger)
        }
    }

    /// A logger that takes info and above and throws the lines away: logging on, as an app runs
    /// it in production, with no I/O in the measurement.
    static let infoLogger: Logger = {
        var logger = Logger(label: "bench", factory: { _ in DiscardingLogHandler() })
        logger.logLevel = .info
        return logger
    }()

    /// AsyncHTTPClient used directly: execute, collect, decode. On the very `HTTPClient` (pool,
    /// event loops, configuration) the transport uses, so the ratio is NetworkingKit's cost alone
    /// (`HTTPClient.shared` decompresses, follows redirects and traces, with the no-op tracer when
    /// none is bootstrapped: 23% more instructions per request over loopback).
    private static func rawAsyncHTTPClient<Answer>(_ shape: Shape<Answer>) -> BenchScenario {
        let decoder = JSONDecoder()
        let base = shape.baseURL.absoluteString
        return BenchScenario(name: "raw AsyncHTTPClient") { index in
            let request = HTTPClientRequest(url: try shape.answer.url(base: base, index).absoluteString)
            let response = try await AsyncHTTPClientTransport.sharedClient.execute(request, timeout: .seconds(30))
            guard response.status == .ok else { throw BenchFailure.status(Int(response.status.code)) }
            let buffer = try await response.body.collect(upTo: 1 << 20)
            _ = try decoder.decode(Answer.self, from: Data(buffer.readableBytesView))
        }
    }

    /// URLSession as an app uses it: one ephemeral session, `data(for:)`, status check, decode.
    private static func rawURLSession<Answer>(_ shape: Shape<Answer>) -> BenchScenario {
        let decoder = JSONDecoder()
        let session = URLSession(configuration: .ephemeral)
        let base = shape.baseURL.absoluteString
        return BenchScenario(name: "raw URLSession") { index in
            var request = URLRequest(url: try shape.answer.url(base: base, index))
            request.timeoutInterval = 30
            let (data, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else { throw BenchFailure.status(status) }
            _ = try decoder.decode(Answer.self, from: data)
        }
    }

    /// NetworkingKit's transport alone: build, send, check, read, decode by hand.
    private static func bareTransport<Answer>(
        _ shape: Shape<Answer>, transport: any HTTPTransport
    ) -> BenchScenario {
        let context = RequestContext(
            options: RequestOptions(timeout: .seconds(30)), requestID: "bench",
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let decoder = JSONDecoder()
        let base = shape.baseURL.absoluteString
        return BenchScenario(name: "bare transport") { index in
            let request = HTTPRequest(method: .get, url: try shape.answer.url(base: base, index))
            let (response, body) = try await transport.send(request, body: nil, context: context)
            guard response.status == .ok else { throw BenchFailure.status(response.status.code) }
            let data = try await body?.collect(upTo: 1 << 20) ?? Data()
            _ = try decoder.decode(Answer.self, from: data)
        }
    }

    /// A client scenario; decoding with `JSONDecoder` as the raw scenario does, unless told otherwise.
    private static func client<Answer>(
        _ name: String, _ shape: Shape<Answer>, transport: any HTTPTransport, middlewares: [any Middleware],
        logger: Logger? = nil, decoder: any ResponseDecoder = JSONDecoder()
    ) -> BenchScenario {
        var configuration = LiveAPIClient.Configuration(
            baseURL: shape.baseURL, transport: transport, middlewares: middlewares, decoder: decoder)
        if let logger { configuration.logger = logger }
        let client = LiveAPIClient(configuration: configuration)
        return BenchScenario(name: name) { index in
            let (path, query) = shape.answer.target(index)
            _ = try await client.send(Request<Answer>(path: path, query: query))
        }
    }

    /// The observability middlewares as an app that bootstrapped no backend runs them.
    private static func observability(logger: Logger? = nil) -> [any Middleware] {
        [TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware(logger: logger)]
    }

    /// The rest of the default order (ARCHITECTURE.md): authentication, de-duplication, cache, retry.
    private static func resilience() -> [any Middleware] {
        let session = TokenRefresher(store: InMemoryTokenStore(AuthToken(accessToken: "bench-token"))) { $0 }
        return [
            AuthenticationMiddleware(tokenProvider: session),
            RequestDeduplicator(),
            HTTPCache(storage: MemoryCacheStorage()),
            RetryMiddleware(),
        ]
    }
}

/// Why a benchmark request did not count.
enum BenchFailure: Error, CustomStringConvertible {
    case status(Int)
    case url(String)

    var description: String {
        switch self {
        case .status(let code): "the server answered \(code) where 200 was expected"
        case .url(let text): "\(text) is not a URL"
        }
    }
}

/// A log handler that takes what its level lets through and throws the line away.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}
#endif
