import DemoAPI
import Foundation
import InMemoryTracing
import Instrumentation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing
import Tracing

#if os(macOS) || os(Linux) || os(Windows)
/// The set-up `TracingMiddleware`'s documentation shows, a tracer bootstrapped at launch, over the
/// AsyncHTTPClient transport's shared client.
///
/// `InstrumentationSystem.bootstrap` can run once per process, so the calls run in a process of
/// their own (an exit test), whose recorded issues are this test's. Exit tests run where a test
/// can start a process: not on iOS, tvOS, watchOS or visionOS.
@Suite("Tracing: a bootstrapped tracer and the AsyncHTTPClient transport", .timeLimit(.minutes(3)))
struct BootstrappedTracerTests {
    @Test("each call sends one traceparent, its span's, and records one span, with a body or without")
    func oneSpanOneTraceParent() async {
        await #expect(processExitsWith: .success) {
            let tracer = W3CTracer()
            InstrumentationSystem.bootstrap(tracer)
            var problems: [String] = []
            try await withDemoServer { server in
                // `AsyncHTTPClientTransport.sharedClient` is made here, after the bootstrap.
                let client = LiveAPIClient(
                    configuration: LiveAPIClient.Configuration(
                        baseURL: server.baseURL, transport: AsyncHTTPClientTransport(), middlewares: [TracingMiddleware()]))
                let calls = [
                    ("GET", Request<Echo>(path: "/echo")),
                    ("POST", Request<Echo>(path: "/echo", method: .post, body: .json(["title": "Toy Story"]))),
                ]
                for (method, request) in calls {
                    let echo = try await client.send(request)
                    guard let span = tracer.finishedSpans.first(where: { $0.operationName == "HTTP \(method)" }) else {
                        problems.append("\(method): no span")
                        continue
                    }
                    let expected = "00-\(span.traceID)-\(span.spanID)-01"
                    if echo.headers["traceparent"] != expected {
                        problems.append("\(method): traceparent \(echo.headers["traceparent"] ?? "none"), not \(expected)")
                    }
                }
            }
            // A span the HTTP client starts for itself may end after the call returns: it is
            // looked for among the open spans as well as the finished ones.
            let spans = tracer.finishedSpans.map(\.operationName) + tracer.recorder.activeSpans.map(\.operationName)
            if spans.sorted() != ["HTTP GET", "HTTP POST"] { problems.append("spans: \(spans)") }
            for problem in problems { Issue.record(Comment(rawValue: problem)) }
            exit(problems.isEmpty ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }
}
#endif
