import ExampleServices
import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Logging
import NetworkingKit

/// One way of getting a todo from DemoAPI: by hand over the bare transport, or through the client
/// with more and more of the library in the chain. Every scenario checks and decodes the answer.
struct BenchScenario: Sendable {
    let name: String
    /// Fetches todo number `index` (1 to 200, cycling) and decodes it.
    let fetch: @Sendable (_ index: Int) async throws -> Void

    /// The scenarios, each over `transport`, the first being the baseline the others are compared to.
    static func all(baseURL: URL, transport: any HTTPTransport) -> [BenchScenario] {
        [
            raw(baseURL: baseURL, transport: transport),
            client("client", baseURL: baseURL, transport: transport, middlewares: []),
            client(
                "client + logging, metrics, tracing (no backend)", baseURL: baseURL, transport: transport,
                middlewares: observability()),
            client(
                "client + full stack", baseURL: baseURL, transport: transport,
                middlewares: observability() + resilience()),
        ]
    }

    /// What an app would write without the library: build, send, check, read, decode.
    private static func raw(baseURL: URL, transport: any HTTPTransport) -> BenchScenario {
        var options = RequestOptions()
        options.timeout = .seconds(30)
        let context = RequestContext(
            options: options, requestID: "bench", logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let decoder = JSONDecoder()
        return BenchScenario(name: "raw transport") { index in
            let request = HTTPRequest(method: .get, url: baseURL.appendingPathComponent("todos/\(todoID(index))"))
            let (response, body) = try await transport.send(request, body: nil, context: context)
            guard response.status == .ok else { throw BenchFailure.status(response.status.code) }
            let data = try await body?.collect(upTo: 1 << 20) ?? Data()
            _ = try decoder.decode(TodoDTO.self, from: data)
        }
    }

    private static func client(
        _ name: String, baseURL: URL, transport: any HTTPTransport, middlewares: [any Middleware]
    ) -> BenchScenario {
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: baseURL, transport: transport, middlewares: middlewares, decoder: JSONDecoder()))
        return BenchScenario(name: name) { index in
            _ = try await client.send(Request<TodoDTO>(path: "/todos/\(todoID(index))"))
        }
    }

    /// The observability middlewares as an app that bootstrapped no backend runs them.
    private static func observability() -> [any Middleware] {
        [TracingMiddleware(), MetricsMiddleware(), LoggingMiddleware()]
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

    /// Cycles through DemoAPI's 200 seeded todos, so that concurrent requests differ and none is
    /// shared by de-duplication.
    private static func todoID(_ index: Int) -> Int {
        index % 200 + 1
    }
}

/// Why a benchmark request did not count.
enum BenchFailure: Error, CustomStringConvertible {
    case status(Int)

    var description: String {
        switch self {
        case .status(let code): "the server answered \(code) where 200 was expected"
        }
    }
}
