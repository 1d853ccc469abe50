import Foundation
import MetricsTestKit
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("MetricsMiddleware")
struct MetricsMiddlewareTests {
    @Test("Counts calls by method and status class, and times them")
    func countsByMethodAndStatusClass() async throws {
        let metrics = TestMetrics()
        let (client, _) = makeClient(middlewares: [MetricsMiddleware(factory: metrics)]) { request in
            request.path.hasSuffix("/broken") ? .status(.internalServerError) : .status(.noContent)
        }
        try await client.request(TestEndpoint(path: "/films"))
        try await client.request(TestEndpoint(path: "/films"))
        try await client.request(TestEndpoint(path: "/films", method: .post))
        _ = await networkError { try await client.request(TestEndpoint(path: "/broken")) }

        let label = "networkingkit_requests_total"
        #expect(metrics.counterTotal(label: label, dimensions: [("method", "GET"), ("status_class", "2xx")]) == 2)
        #expect(metrics.counterTotal(label: label, dimensions: [("method", "POST"), ("status_class", "2xx")]) == 1)
        #expect(metrics.counterTotal(label: label, dimensions: [("method", "GET"), ("status_class", "5xx")]) == 1)
        let durations = metrics.timers(label: "networkingkit_request_duration").flatMap(\.values)
        #expect(durations.count == 4)
        #expect(durations.allSatisfy { $0 >= 0 })
    }

    @Test("A thrown error is counted as status class error, with its kind")
    func countsErrors() async throws {
        let metrics = TestMetrics()
        let (client, _) = makeClient(middlewares: [MetricsMiddleware(dimensions: [("service", "t")], factory: metrics)]) { _ in
            .failure(.timeout(nil))
        }
        _ = await networkError { try await client.request(TestEndpoint(path: "/films")) }
        #expect(
            metrics.counterTotal(
                label: "networkingkit_requests_total",
                dimensions: [("service", "t"), ("method", "GET"), ("status_class", "error"), ("error", "timeout")]) == 1)
    }

    @Test("Counts cache misses and hits of an HTTPCache inside it")
    func countsCacheResults() async throws {
        let metrics = TestMetrics()
        let (client, transport) = makeClient(
            middlewares: [MetricsMiddleware(factory: metrics), HTTPCache(storage: MemoryCacheStorage())]
        ) { _ in .json("{}", headers: ["Cache-Control": "max-age=100"]) }
        try await client.request(TestEndpoint(path: "/films"))
        try await client.request(TestEndpoint(path: "/films"))
        try await client.request(TestEndpoint(path: "/films"))
        #expect(transport.requests.count == 1)
        #expect(metrics.counterTotal(label: "networkingkit_cache_total", dimensions: [("result", "miss")]) == 1)
        #expect(metrics.counterTotal(label: "networkingkit_cache_total", dimensions: [("result", "hit")]) == 2)
    }
}
