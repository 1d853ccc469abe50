import DemoAPI
import Foundation
import InMemoryTracing
import NetworkingKit
import Testing
import Tracing
import W3CTraceContext

/// `TracingMiddleware` against a real server: the W3C `traceparent` an OpenTelemetry-style tracer
/// writes reaches the server, over every transport and across redirects.
@Suite("Tracing: W3C trace context on the wire", .timeLimit(.minutes(3)))
struct TraceContextPropagationTests {
    private func makeTracedClient(_ server: DemoServer, _ kind: TransportKind, tracer: some Tracer) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: kind.transport, middlewares: [TracingMiddleware(tracer: tracer)]))
    }

    @Test("the server receives traceparent: version 00, the caller's trace id, the client span's id", arguments: TransportKind.allCases)
    func traceParentReachesServer(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let tracer = W3CTracer()
            let client = makeTracedClient(server, kind, tracer: tracer)
            let echo: Echo = try await tracer.withSpan("checkout") { _ in
                try await client.send(Request(path: "/echo"))
            }

            let header = try #require(echo.headers["traceparent"])
            #expect(header.wholeMatch(of: #/00-[0-9a-f]{32}-[0-9a-f]{16}-01/#) != nil, "got \(header)")
            let received = try TraceContext(traceParentHeaderValue: header)
            let parent = try #require(tracer.finishedSpans.first { $0.operationName == "checkout" })
            let call = try #require(tracer.finishedSpans.first { $0.operationName == "HTTP GET" })
            #expect(received.traceID.description == parent.traceID)
            #expect(received.spanID.description == call.spanID)
            #expect(call.parentSpanID == parent.spanID)
        }
    }

    @Test("a trace that came in with a request continues in the call this service makes", arguments: TransportKind.allCases)
    func incomingTraceContinues(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let tracer = W3CTracer()
            let client = makeTracedClient(server, kind, tracer: tracer)
            // What an upstream caller sent this service, read back the way a server framework does.
            var incoming = ServiceContext.topLevel
            tracer.extract(
                ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"], into: &incoming,
                using: DictionaryExtractor())
            let echo: Echo = try await ServiceContext.withValue(incoming) {
                try await client.send(Request(path: "/echo"))
            }

            let received = try TraceContext(traceParentHeaderValue: try #require(echo.headers["traceparent"]))
            #expect(received.traceID.description == "4bf92f3577b34da6a3ce929d0e0e4736")
            #expect(received.spanID.description != "00f067aa0ba902b7")
            let call = try #require(tracer.finishedSpans.first)
            #expect(call.parentSpanID == "00f067aa0ba902b7")
        }
    }

    @Test("a traceparent the caller set is replaced by the call's, never sent twice", arguments: TransportKind.allCases)
    func staleTraceParentReplaced(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let tracer = W3CTracer()
            let stale = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
            let echo: Echo = try await makeTracedClient(server, kind, tracer: tracer).send(
                Request(path: "/echo", headers: ["traceparent": stale]))

            let header = try #require(echo.headers["traceparent"])
            let call = try #require(tracer.finishedSpans.first)
            #expect(header == "00-\(call.traceID)-\(call.spanID)-01")
            #expect(!header.contains(","))
        }
    }

    @Test("after redirects, the request that is answered still carries the call's traceparent: one span", arguments: TransportKind.allCases)
    func redirectHopsKeepTraceParent(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let tracer = W3CTracer()
            let echo: Echo = try await makeTracedClient(server, kind, tracer: tracer).send(
                Request(path: "/redirect/chain/2"))

            #expect(echo.path == "/echo")
            #expect(server.stats.snapshot.total == 4)
            let spans = tracer.finishedSpans
            try #require(spans.count == 1)
            #expect(echo.headers["traceparent"] == "00-\(spans[0].traceID)-\(spans[0].spanID)-01")
        }
    }

    @Test("with the no-op tracer, nothing is added to the request", arguments: TransportKind.allCases)
    func noTracerNoHeader(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let echo: Echo = try await makeTracedClient(server, kind, tracer: NoOpTracer()).send(Request(path: "/echo"))
            #expect(echo.headers["traceparent"] == nil)
            #expect(echo.headers["tracestate"] == nil)
        }
    }
}

/// Reads propagation values from a dictionary of lower-cased header names.
private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key.lowercased()]
    }
}
