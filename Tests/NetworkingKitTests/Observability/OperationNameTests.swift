import Foundation
import InMemoryTracing
import MetricsTestKit
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Every call can carry an operation name (an endpoint enum's case, or an explicit one, as an
/// OpenAPI document's operationId), which metrics, spans and logs use.
@Suite("Operation names")
struct OperationNameTests {
    enum FilmsAPI: APIEndpoint {
        case films
        case filmDetail(id: String)
        case rate(id: String, stars: Int)

        var path: String {
            switch self {
            case .films: "/films"
            case .filmDetail(let id), .rate(let id, _): "/films/\(id)"
            }
        }
        var options: RequestOptions {
            guard case .rate = self else { return .default }
            var options = RequestOptions()
            options.operationName = "rateFilm"
            return options
        }
    }

    /// Remembers the operation name each call's context carried.
    final class NameRecorder: Middleware {
        private let names = LockedState<[String?]>([])
        var seen: [String?] { names.withLock { $0 } }

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
        ) async throws -> HTTPAnswer {
            names.withLock { $0.append(context.operationName) }
            return try await next(request, body, context)
        }
    }

    @Test("an endpoint enum's case names its calls, an explicit name wins, a typed request has none unless given one")
    func names() async throws {
        let recorder = NameRecorder()
        let (client, _) = makeClient(middlewares: [recorder])
        try await client.request(FilmsAPI.films)
        try await client.request(FilmsAPI.filmDetail(id: "up"))
        try await client.request(FilmsAPI.rate(id: "up", stars: 5))
        try await client.send(Request<Void>(path: "/films"))
        var options = RequestOptions()
        options.operationName = "listFilms"
        try await client.send(Request<Void>(path: "/films", options: options))
        try await client.request(TestEndpoint(path: "/films"))
        #expect(recorder.seen == ["films", "filmDetail", "rateFilm", nil, "listFilms", nil])
    }

    @Test("metrics count by operation, the span is named after it, and log lines carry it")
    func usedByObservability() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(
            capture, inner: [MetricsMiddleware(factory: metrics), TracingMiddleware(tracer: tracer)]
        ) { _ in .status(.noContent) }
        try await client.request(FilmsAPI.filmDetail(id: "up"))
        try await client.send(Request<Void>(path: "/films"))

        #expect(
            metrics.counterTotal(
                label: "networkingkit_requests_total",
                dimensions: [("method", "GET"), ("operation", "filmDetail"), ("status_class", "2xx")]) == 1)
        // The unnamed call has a counter of its own, without the dimension.
        let counters = metrics.counters(label: "networkingkit_requests_total")
        #expect(counters.count == 2)
        #expect(counters.filter { !$0.dimensions.contains { $0.0 == "operation" } }.map(\.totalValue) == [1])
        #expect(tracer.finishedSpans.map(\.operationName) == ["filmDetail", "HTTP GET"])
        let sent = capture.records("Sending request")
        #expect(sent.count == 2)
        #expect(sent.first?.metadata["operation"].map { "\($0)" } == "filmDetail")
        #expect(sent.last?.metadata["operation"] == nil)
    }
}
