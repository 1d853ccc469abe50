// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import AsyncHTTPClient
import ExampleServices
import Foundation
import HTTPTypes
import Logging
import Metrics
import MetricsTestKit
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import NIOSSL
import Testing
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift samples of NetworkingKit's doc comments, from HTTP to Transfer, and of
// NetworkingKitAsyncHTTPClient's, compiled: each sits between `doc-sample` markers, exactly as in
// its doc comment, inside a function whose parameters supply what the sample assumes, and the
// test below fails when a sample and its copy differ.

/// Stand-ins for what the samples take from the app around them.
private struct UploadReceipt: Decodable, Sendable {
    let id: Int
}

private struct TodoPage: Decodable, Sendable {
    let items: [TodoDTO]
    let nextCursor: String?
}

/// Stands for a view's progress bar.
final class SampleProgressBar {
    var fraction = 0.0
}

private struct Post: Decodable, Sendable {
    let title: String
}

/// The model the decoder's sample names.
private typealias Todo = TodoDTO

/// Stands for swift-prometheus' `PrometheusMetricsFactory`, a metrics backend.
private typealias PrometheusMetricsFactory = TestMetrics

/// The endpoints the streaming and transfer samples name.
private struct TodosExportEndpoint: APIEndpoint {
    var path: String { "/todos/export" }
}

extension TodosAPI {
    /// The todos as JSON lines.
    fileprivate static var export: TodosExportEndpoint { TodosExportEndpoint() }
}

private enum Feeds: APIEndpoint {
    case live

    var path: String { "/feed" }
}

private struct FileEndpoint: APIEndpoint {
    let path: String
}

private enum Files {
    static let report = FileEndpoint(path: "/files/report")

    static func report(id: Int) -> FileEndpoint {
        FileEndpoint(path: "/files/reports/\(id)")
    }
}

private enum Uploads: APIEndpoint {
    case create

    var path: String { "/uploads" }
    var method: HTTPMethod { .post }
}

private enum DocCommentClientSamples {
    // MARK: HTTP and logging

    static func httpBodySample(chunks: AsyncStream<Data>, fileSize: Int64) {
        // <doc-sample>
        let json = HTTPBody(Data(#"{"rating":5}"#.utf8))
        let upload = HTTPBody(chunks, length: .known(fileSize), iterationBehavior: .single)
        // </doc-sample>
        _ = (json, upload)
    }

    /// The sample is a lone expression: it is the value of this function.
    static func curlDescriptionSample(request: HTTPRequest) -> String {
        // <doc-sample>
        request.curlDescription(body: Data(#"{"rating":5}"#.utf8))
        // curl -X POST 'https://api.example.com/v1/films/1/ratings' -H 'Authorization: Bearer <redacted>' \
        //   -H 'Content-Type: application/json' --data-raw '{"rating":5}'
        // </doc-sample>
    }

    static func loggingMiddlewareSample(baseURL: URL, refresher: TokenRefresher) {
        // <doc-sample>
        var logger = Logger(label: "api")
        logger.logLevel = .debug
        let client = LiveAPIClient(configuration: .init(
            baseURL: baseURL,
            middlewares: [
                LoggingMiddleware(redaction: .default.adding(queryParameters: ["api_key"])),
                AuthenticationMiddleware(tokenProvider: refresher),
                RetryMiddleware(),
            ],
            logger: logger))
        // </doc-sample>
        _ = client
    }

    static func redactionSample() {
        // <doc-sample>
        let redaction = Redaction.default.adding(headers: ["X-API-Key"], queryParameters: ["api_key", "token"])
        print(redaction.redact(URL(string: "https://api.example.com/films?api_key=k3y&page=2")!))
        // https://api.example.com/films?api_key=%3Credacted%3E&page=2
        // </doc-sample>
    }

    // MARK: Middleware

    static func callDeadlineSample(context: RequestContext, delay: Duration, answer: HTTPAnswer) -> HTTPAnswer? {
        // <doc-sample>
        if let deadline = context.deadline, delay >= deadline.remaining {
            return answer  // no time for another attempt
        }
        // </doc-sample>
        return nil
    }

    static func httpAnswerSample() {
        // <doc-sample>
        struct TimingMiddleware: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                let start = ContinuousClock.now
                var answer = try await next(request, body, context)
                answer.response.headerFields[HTTPField.Name("X-Client-Duration")!] = "\(ContinuousClock.now - start)"
                return answer
            }
        }
        // </doc-sample>
    }

    static func middlewareSample() {
        // <doc-sample>
        struct APIKeyMiddleware: Middleware {
            let key: String
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                var request = request
                request.headerFields[HTTPField.Name("X-API-Key")!] = key
                return try await next(request, body, context)
            }
        }
        // </doc-sample>
    }

    static func requestInterceptorSample(url: URL, store: any TokenStore) {
        // <doc-sample>
        struct AuthInterceptor: RequestInterceptor {
            let tokenStore: any TokenStore
            func intercept(_ request: URLRequest) async throws -> URLRequest {
                var request = request
                if let token = try await tokenStore.token() {
                    request.setValue(token.authorizationValue, forHTTPHeaderField: "Authorization")
                }
                return request
            }
        }
        let client = LiveAPIClient(baseURL: url, middlewares: [AuthInterceptor(tokenStore: store).middleware])
        // </doc-sample>
        _ = client
    }

    static func responseInterceptorSample() {
        // <doc-sample>
        struct ResponseLogger: ResponseInterceptor {
            func intercept(data: Data, response: URLResponse) async throws -> (Data, URLResponse) {
                print((response as? HTTPURLResponse)?.statusCode ?? 0, data.count)
                return (data, response)
            }
        }
        // </doc-sample>
    }

    // MARK: Multipart and observability

    static func multipartFormDataSample(client: LiveAPIClient, posterURL: URL) async throws {
        // <doc-sample>
        var form = MultipartFormData()
        form.append("Luxo Jr.", name: "title")
        form.append(Data(#"{"rating":5}"#.utf8), name: "meta", contentType: "application/json")
        try form.append(fileAt: posterURL, name: "poster")   // read in chunks while it is sent
        let receipt = try await client.send(Request<UploadReceipt>(path: "/upload/multipart", method: .post, body: .multipart(form)))
        // </doc-sample>
        _ = receipt
    }

    static func metricsMiddlewareSample(baseURL: URL) {
        // <doc-sample>
        MetricsSystem.bootstrap(PrometheusMetricsFactory())   // once, at launch
        let client = LiveAPIClient(configuration: .init(
            baseURL: baseURL,
            middlewares: [MetricsMiddleware(), HTTPCache(storage: MemoryCacheStorage()), RetryMiddleware()]))
        // </doc-sample>
        _ = client
    }

    static func tracingMiddlewareSample(baseURL: URL, otelTracer: any Tracer) {
        // <doc-sample>
        InstrumentationSystem.bootstrap(otelTracer)   // once, at launch
        let client = LiveAPIClient(configuration: .init(
            baseURL: baseURL, middlewares: [TracingMiddleware(), RetryMiddleware()]))
        // </doc-sample>
        _ = client
    }

    // MARK: Pagination, redirects and retry

    static func cursorPagesSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        // A cursor in the body: {"items": [...], "nextCursor": "abc"}
        let pages = client.pages(Request<TodoPage>(path: "/cursor/todos")) { page in
            page.value.nextCursor.map { Request(path: "/cursor/todos", query: [URLQueryItem(name: "cursor", value: $0)]) }
        }
        for try await todo in pages.items(\.items) {
            print(todo.title)
        }
        // </doc-sample>
    }

    static func linkedPagesSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        for try await todo in client.pages(following: Request<[TodoDTO]>(path: "/todos", query: [URLQueryItem(name: "limit", value: "20")])).items {
            print(todo.title)
        }
        // </doc-sample>
    }

    static func numberedPagesSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let posts = client.pages(numbered: Request<PaginatedResponse<Post>>(path: "/pages/todos"))
        for try await post in posts.items(\.data) {
            print(post.title)
        }
        // </doc-sample>
    }

    static func redirectPolicySample(url: URL) {
        // <doc-sample>
        var configuration = LiveAPIClient.Configuration(baseURL: url)
        configuration.redirectPolicy = RedirectPolicy(maxRedirects: 3, sensitiveHeaders: [HTTPField.Name("X-API-Key")!])
        // </doc-sample>
        _ = configuration
    }

    static func retryMiddlewareSample(url: URL) {
        // <doc-sample>
        let client = LiveAPIClient(configuration: .init(
            baseURL: url,
            middlewares: [RetryMiddleware(policy: .default)]
        ))
        // </doc-sample>
        _ = client
    }

    static func circuitBreakerSample(url: URL) {
        // <doc-sample>
        let breaker = CircuitBreaker()
        let client = LiveAPIClient(configuration: .init(
            baseURL: url,
            middlewares: [RetryMiddleware(circuitBreaker: breaker), breaker]
        ))
        // </doc-sample>
        _ = client
    }

    static func hedgingPolicySample() -> RequestOptions {
        // <doc-sample>
        var options = RequestOptions()
        options.hedging = HedgingPolicy(delay: .percentile(0.95, fallback: .milliseconds(200)))
        // </doc-sample>
        return options
    }

    static func hedgingMiddlewareSample(url: URL) {
        // <doc-sample>
        let client = LiveAPIClient(configuration: .init(
            baseURL: url,
            middlewares: [HedgingMiddleware(budget: RetryBudget())]
        ))
        // </doc-sample>
        _ = client
    }

    static func retryAtTheCallSiteSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let films = try await withRetry(policy: .default) {
            try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        }
        // </doc-sample>
        _ = films
    }

    // MARK: Streaming and transfers

    static func jsonLinesSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        for try await todo in client.lines(TodosAPI.export, as: TodoDTO.self) {
            print(todo.title)
        }
        // </doc-sample>
    }

    static func eventStreamUpdatesSample(client: LiveAPIClient, status: inout String, handle: (ServerSentEvent) -> Void) async throws {
        // <doc-sample>
        for try await update in client.events(Feeds.live).updates {
            switch update {
            case .connected: status = "live"
            case .reconnecting(let wait, _): status = "reconnecting in \(wait)"
            case .event(let event): handle(event)
            case .comment: break
            }
        }
        // </doc-sample>
    }

    static func serverSentEventsSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        for try await event in client.events(Feeds.live) {
            print(event.event, event.data)
        }
        // </doc-sample>
    }

    static func downloadSample(client: LiveAPIClient, reportURL: URL) async throws {
        // <doc-sample>
        let file = try await client.download(Files.report(id: 7), to: reportURL, resumable: true) { progress in
            print(progress)  // 1048576 of 4194304 bytes (25%)
        }
        // </doc-sample>
        _ = file
    }

    static func uploadSample(client: LiveAPIClient, posterURL: URL) async throws {
        // <doc-sample>
        var form = MultipartFormData()
        form.append("Luxo Jr.", name: "title")
        try form.append(fileAt: posterURL, name: "poster")
        let receipt = try await client.upload(.multipart(form), to: Uploads.create, as: UploadReceipt.self) { progress in
            print(progress)
        }
        // </doc-sample>
        _ = receipt
    }

    static func transferProgressSample(client: LiveAPIClient, destination: URL) async throws {
        // <doc-sample>
        let file = try await client.download(Files.report, to: destination) { progress in
            print("\(progress.completed) of \(progress.total ?? -1) bytes")
        }
        // </doc-sample>
        _ = file
    }

    // MARK: NetworkingKitAsyncHTTPClient

    // MARK: Decoding

    static func progressTaskSample(client: LiveAPIClient, reportURL: URL, bar: SampleProgressBar) async throws {
        // <doc-sample>
        let transfer = client.downloadTask(Files.report, to: reportURL)
        for await progress in transfer.progress {
            bar.fraction = progress.fraction ?? 0
        }
        let file = try await transfer.value
        // </doc-sample>
        _ = file
    }

    static func requestCompressionSample(client: LiveAPIClient, events: [String]) async throws {
        // <doc-sample>
        var options = RequestOptions()
        options.requestCompression = .gzip
        let receipt = try await client.send(Request<UploadReceipt>(path: "/events", method: .post, body: .json(events), options: options))
        // </doc-sample>
        _ = receipt
    }

    static func fastJSONDecoderSample(data: Data) throws {
        // <doc-sample>
        var decoder = FastJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let todos = try decoder.decode([Todo].self, from: data)
        // </doc-sample>
        _ = todos
    }

    static func responseDecoderSample() {
        // <doc-sample>
        struct PropertyListAnswers: ResponseDecoder {
            func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
                try PropertyListDecoder().decode(type, from: data)
            }
        }
        // </doc-sample>
        _ = PropertyListAnswers()
    }

    static func asyncHTTPClientTransportSample(url: URL) {
        // <doc-sample>
        let client = LiveAPIClient(baseURL: url, transport: AsyncHTTPClientTransport())
        // </doc-sample>
        _ = client
    }

    static func legacyTLSSample() {
        // <doc-sample>
        var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
        configuration.tlsConfiguration?.minimumTLSVersion = .tlsv1
        // </doc-sample>
        _ = configuration
    }

    static func certificatePinsSample() throws {
        // <doc-sample>
        let pins = try CertificatePins(
            [
                "api.example.com": [
                    "sha256/DOUGCybjAJb1JgeOzqzSgTn/NJMHrESg1duHTEytHys=",  // the current key
                    "sha256/gmIa3DuU+6114fgXHXPruCY7bAx+2xPvgg2Hf12fjY8=",  // the backup
                ],
                "*.cdn.example.com": ["sha256/DOUGCybjAJb1JgeOzqzSgTn/NJMHrESg1duHTEytHys="],
            ],
            expiry: Date(timeIntervalSince1970: 1_893_456_000))  // 2030-01-01
        let transport = URLSessionTransport(pins: pins)
        // </doc-sample>
        _ = transport
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    static func loopExecutorSample(url: URL) async throws {
        // <doc-sample>
        let transport = NIOTransport.shared
        let client = LiveAPIClient(baseURL: url, transport: transport)
        let films = try await withTaskExecutorPreference(transport.taskExecutor()) {
            try await client.send(Request<[PixarFilm]>(path: "/films"))
        }
        // </doc-sample>
        _ = films
    }

    static func cookieJarSample(apiURL: URL, supportDirectory: URL) throws {
        // <doc-sample>
        let jar = try CookieJar(contentsOf: supportDirectory.appending(path: "cookies.json"))
        let client = LiveAPIClient(configuration: .init(
            baseURL: apiURL,
            middlewares: [LoggingMiddleware(), jar, HTTPCache(storage: MemoryCacheStorage()), RetryMiddleware()]
        ))
        // </doc-sample>
        _ = client
    }

    static func nioTransportSample(url: URL) {
        // <doc-sample>
        let client = LiveAPIClient(baseURL: url, transport: NIOTransport.shared)
        // </doc-sample>
        _ = client
    }

    // MARK: WebSocket

    static func webSocketOptionsSample() -> WebSocketOptions {
        // <doc-sample>
        var options = WebSocketOptions()
        options.maximumMessageSize = 4 * 1024 * 1024
        options.pingInterval = .seconds(30)
        // </doc-sample>
        return options
    }

    static func webSocketCompressionSample() -> WebSocketOptions {
        // <doc-sample>
        var options = WebSocketOptions()
        options.compression = .disabled
        // </doc-sample>
        return options
    }

    static func webSocketConnectionSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let connection = try await client.webSocket(Chat.room("general"))
        try await connection.send(.text("hello"))
        for try await message in connection.messages {
            if case .text(let text) = message { print(text) }
        }
        print("closed:", connection.closeFrame?.description ?? "no close frame")
        // </doc-sample>
    }

    static func webSocketClientSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let connection = try await client.webSocket(Chat.room("general"))
        try await connection.send(.text("hello"))
        // </doc-sample>
        await connection.close()
    }

    static func reconnectingWebSocketClientSample(client: LiveAPIClient) async {
        // <doc-sample>
        var reconnection = WebSocketReconnection()
        reconnection.onConnect = { try await $0.send(.text("subscribe")) }
        let live = client.webSocket(Request<Void>(path: "/ws/echo"), reconnection: reconnection)
        // </doc-sample>
        await live.close()
    }

    static func webSocketReconnectionSample() -> WebSocketReconnection {
        // <doc-sample>
        var reconnection = WebSocketReconnection()
        reconnection.onConnect = { connection in
            try await connection.send(.text(#"{"subscribe":"prices"}"#))
        }
        // </doc-sample>
        return reconnection
    }

    static func reconnectingWebSocketSample(client: LiveAPIClient, reconnection: WebSocketReconnection) async throws {
        // <doc-sample>
        let live = client.webSocket(Prices.stream, reconnection: reconnection)
        for try await update in live.updates {
            switch update {
            case .connected: print("live")
            case .message(let message): print(message)
            case .reconnecting(let after, let reason): print("reconnecting in", after, reason)
            }
        }
        // </doc-sample>
    }
}

/// The price feed the reconnecting sample follows.
private enum Prices: APIEndpoint {
    case stream

    var path: String { "/prices" }
}

/// The chat rooms the WebSocket samples connect to.
private enum Chat: APIEndpoint {
    case room(String)

    var path: String {
        switch self {
        case .room(let name): "/chat/\(name)"
        }
    }
}

@Suite("Doc-comment samples: NetworkingKit, HTTP to Transfer, and NetworkingKitAsyncHTTPClient")
struct DocCommentSamplesClientTests {
    @Test("every Swift sample in these doc comments is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSameDocSamples(
            sources: [
                "Sources/NetworkingKit/Core/Body/HTTPBody.swift",
                "Sources/NetworkingKit/Logging/CURLDescription.swift",
                "Sources/NetworkingKit/Logging/LoggingMiddleware.swift",
                "Sources/NetworkingKit/Core/HTTP/Redaction.swift",
                "Sources/NetworkingKit/Core/CallDeadline.swift",
                "Sources/NetworkingKit/Core/HTTPAnswer.swift",
                "Sources/NetworkingKit/Core/Middleware.swift",
                "Sources/NetworkingKit/Middleware/RequestInterceptor.swift",
                "Sources/NetworkingKit/Middleware/ResponseInterceptor.swift",
                "Sources/NetworkingKit/Multipart/MultipartFormData.swift",
                "Sources/NetworkingKit/Observability/MetricsMiddleware.swift",
                "Sources/NetworkingKit/Observability/TracingMiddleware.swift",
                "Sources/NetworkingKit/Pagination/Pages.swift",
                "Sources/NetworkingKit/Pagination/PaginatedResponse.swift",
                "Sources/NetworkingKit/Core/RedirectPolicy.swift",
                "Sources/NetworkingKit/Retry/RetryMiddleware.swift",
                "Sources/NetworkingKit/Resilience/CircuitBreaker.swift",
                "Sources/NetworkingKit/Resilience/HedgingPolicy.swift",
                "Sources/NetworkingKit/Resilience/HedgingMiddleware.swift",
                "Sources/NetworkingKit/Retry/WithRetry.swift",
                "Sources/NetworkingKit/Streaming/JSONLines.swift",
                "Sources/NetworkingKit/Streaming/ServerSentEvents.swift",
                "Sources/NetworkingKit/Transfer/APIClient+Download.swift",
                "Sources/NetworkingKit/Transfer/APIClient+Upload.swift",
                "Sources/NetworkingKit/Transfer/TransferProgress.swift",
                "Sources/NetworkingKit/Transfer/ProgressTask.swift",
                "Sources/NetworkingKit/Compression/RequestCompression.swift",
                "Sources/NetworkingKit/JSON/FastJSONDecoder.swift",
                "Sources/NetworkingKit/Client/ResponseDecoder.swift",
                "Sources/NetworkingKitAsyncHTTPClient/AsyncHTTPClientTransport.swift",
                "Sources/NetworkingKit/Pinning/CertificatePins.swift",
                "Sources/NetworkingKitAsyncHTTPClient/NIO/EventLoopExecutor.swift",
                "Sources/NetworkingKit/Cookies/CookieJar.swift",
                "Sources/NetworkingKitAsyncHTTPClient/NIO/NIOTransport.swift",
                "Sources/NetworkingKit/Core/WebSocket/WebSocketOptions.swift",
                "Sources/NetworkingKit/Core/WebSocket/WebSocketCompression.swift",
                "Sources/NetworkingKit/WebSocket/WebSocketConnection.swift",
                "Sources/NetworkingKit/WebSocket/LiveAPIClient+WebSocket.swift",
                "Sources/NetworkingKit/WebSocket/WebSocketReconnection.swift",
                "Sources/NetworkingKit/WebSocket/ReconnectingWebSocket.swift",
            ],
            testFile: #filePath)
    }
}
