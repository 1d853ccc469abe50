import Foundation
import InMemoryTracing
import NetworkingKit
import NetworkingKitTesting
import Testing
import Tracing

@Suite("TracingMiddleware")
struct TracingMiddlewareTests {
    @Test("One client span per call, with the HTTP client attributes and the context injected")
    func oneSpanPerCall() async throws {
        let tracer = InMemoryTracer()
        let (client, transport) = makeClient(middlewares: [TracingMiddleware(tracer: tracer)])
        try await client.request(
            TestEndpoint(path: "/films", queryItems: [URLQueryItem(name: "page", value: "2")]))

        let spans = tracer.finishedSpans
        try #require(spans.count == 1)
        let span = spans[0]
        #expect(span.operationName == "HTTP GET")
        #expect(span.kind == .client)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(span.attributes["url.full"]?.toSpanAttribute() == "https://api.example.com/v1/films?page=2")
        #expect(span.attributes["server.address"]?.toSpanAttribute() == "api.example.com")
        #expect(span.attributes["server.port"]?.toSpanAttribute() == 443)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 204)
        #expect(span.status == nil)

        let sent = try #require(transport.requests.first)
        #expect(sent.header(InMemoryTracer.traceIDKey) == span.traceID)
        #expect(sent.header(InMemoryTracer.spanIDKey) == span.spanID)
    }

    @Test("A 500 sets the error status and error.type")
    func serverErrorStatus() async throws {
        let tracer = InMemoryTracer()
        let (client, _) = makeClient(middlewares: [TracingMiddleware(tracer: tracer)]) { _ in
            .status(.internalServerError)
        }
        _ = await networkError { try await client.request(TestEndpoint(path: "/films")) }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 500)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "500")
    }

    @Test("A transport error sets the error status, error.type and records the error")
    func transportErrorStatus() async throws {
        let tracer = InMemoryTracer()
        let (client, _) = makeClient(middlewares: [TracingMiddleware(tracer: tracer)]) { _ in .failure(.timeout(nil)) }
        _ = await networkError { try await client.request(TestEndpoint(path: "/films")) }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "timeout")
        #expect(span.errors.count == 1)
    }

    @Test("The span is a child of the task's current context")
    func childOfCurrentContext() async throws {
        let tracer = InMemoryTracer()
        let (client, _) = makeClient(middlewares: [TracingMiddleware(tracer: tracer)])
        try await tracer.withSpan("parent") { _ in
            try await client.request(TestEndpoint(path: "/films"))
        }
        let spans = tracer.finishedSpans
        let child = try #require(spans.first { $0.operationName == "HTTP GET" })
        let parent = try #require(spans.first { $0.operationName == "parent" })
        #expect(child.parentSpanID == parent.spanID)
        #expect(child.traceID == parent.traceID)
    }

    @Test("Without a tracer of its own it uses the task's scoped tracer, and adds nothing when there is none")
    func defaultTracer() async throws {
        let (client, transport) = makeClient(middlewares: [TracingMiddleware()])
        // Nothing bootstrapped in this process: the call goes straight through.
        try await client.request(TestEndpoint(path: "/films"))
        #expect(transport.requests[0].header(InMemoryTracer.traceIDKey) == nil)

        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await client.request(TestEndpoint(path: "/films"))
        }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "HTTP GET")
        #expect(transport.requests[1].header(InMemoryTracer.traceIDKey) == span.traceID)
    }
}
