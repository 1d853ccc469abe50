import Foundation
import HTTPTypes
import InMemoryTracing
import Logging
import MetricsTestKit
import NetworkingKit
import NetworkingKitTesting
import Testing
import Tracing

/// The upgrade is a call like any other to the observability middlewares: logged (its credential
/// redacted), counted, traced, with the trace context sent to the server.
@Suite("WebSocket: logging, metrics and tracing of the upgrade")
struct WebSocketObservabilityTests {
    @Test("logged with its credential redacted, counted as 1xx, traced, the trace context sent")
    func observed() async throws {
        let transport = WebSocketClientTests.ScriptedWebSocketTransport([.switchingProtocols])
        let logs = LogCapture()
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: WebSocketClientTests.url, transport: transport,
                middlewares: [
                    LoggingMiddleware(logger: logs.logger(), requestLevel: .info, responseLevel: .info),
                    MetricsMiddleware(factory: metrics), TracingMiddleware(tracer: tracer),
                ]))
        let connection = try await client.webSocket(
            Request<Void>(path: "/chat", query: [URLQueryItem(name: "token", value: "t0ken")], headers: ["Authorization": "Bearer s3cret"]))
        await connection.close()

        let answer = try #require(logs.records("Received response").first)
        #expect(answer.metadata["http.status"] == "101")
        #expect(!logs.records.contains { $0.rendered.contains("s3cret") })
        #expect(metrics.counterTotal(label: "networkingkit_requests_total", dimensions: [("method", "GET"), ("status_class", "1xx")]) == 1)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 101)
        #expect(span.status == nil)
        let sent = try #require(transport.requests.first)
        #expect(sent.headerFields[HTTPField.Name(InMemoryTracer.traceIDKey)!] == span.traceID)
    }
}
