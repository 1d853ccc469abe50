import Foundation
public import HTTPTypes
import Instrumentation
public import Tracing

/// Traces each call with swift-distributed-tracing: one client span, and the span's context
/// propagated in the request's headers.
///
/// ```swift
/// InstrumentationSystem.bootstrap(otelTracer)   // once, at launch
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: baseURL, middlewares: [TracingMiddleware(), RetryMiddleware()]))
/// ```
///
/// The span is named after the call's operation (``RequestContext/operationName``: an endpoint
/// enum's case, or ``RequestOptions/operationName``), or `HTTP GET` (the method) for a call
/// without one, and carries the OpenTelemetry HTTP client
/// attributes: `http.request.method`, `url.full` (redacted), `server.address`, `server.port`,
/// `http.response.status_code`, and `error.type` when the call failed (the status code for a 4xx
/// or 5xx, else the error's kind). A 5xx or a thrown error sets the span's status to error. The
/// parent is the task's `ServiceContext.current`.
///
/// **Propagation.** The tracer injects the span's context into the request's headers with an
/// `Injector` over `HTTPFields`; an OpenTelemetry tracer writes W3C `traceparent` (and
/// `tracestate`). Inner middlewares run with the span's context as `ServiceContext.current`.
///
/// **Where to put it.** First in the list, one span per logical call; after a
/// ``RetryMiddleware``, one span per attempt.
///
/// **Free without a tracer.** When the tracer is swift-distributed-tracing's `NoOpTracer`
/// (nothing bootstrapped), a call goes straight to `next`.
public struct TracingMiddleware: Middleware {
    /// The tracer given at creation, or `nil` to use `InstrumentationSystem.tracer` at each call.
    public let tracer: (any Tracer)?
    /// What is hidden from `url.full`.
    public let redaction: Redaction

    /// Creates a tracing middleware.
    /// - Parameters:
    ///   - tracer: The tracer; `nil` (the default) uses `InstrumentationSystem.tracer`.
    ///   - redaction: The query parameters to hide in `url.full`.
    public init(tracer: (any Tracer)? = nil, redaction: Redaction = .default) {
        self.tracer = tracer
        self.redaction = redaction
    }

    /// Runs the rest of the chain in a client span.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        let tracer: any Tracer
        if let own = self.tracer {
            tracer = own
        } else {
            // Nothing bootstrapped costs one concrete type check here, before any search for a
            // tracer conformance; a multiplexed instrument is searched by the tracing library.
            let instrument = InstrumentationSystem.instrument
            if instrument is NoOpInstrument { return try await next(request, body, context) }
            tracer = instrument as? any Tracer ?? InstrumentationSystem.tracer
        }
        if tracer is NoOpTracer { return try await next(request, body, context) }
        return try await trace(request, body: body, context: context, next: next, tracer: tracer)
    }

    private func trace<T: Tracer>(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext, tracer: T
    ) async throws -> HTTPAnswer {
        // The operation's name when the call has one (an endpoint's case, an operationName), as
        // OpenAPI clients name spans after the operationId; the method otherwise.
        let span = tracer.startSpan(
            context.operationName ?? "HTTP \(request.method.rawValue)", context: ServiceContext.current ?? .topLevel,
            ofKind: .client)
        defer { span.end() }
        if span.isRecording {
            span.attributes = requestAttributes(request)
        }
        var request = request
        tracer.inject(span.context, into: &request.headerFields, using: HTTPFieldsInjector())
        do {
            let answer = try await ServiceContext.withValue(span.context) {
                try await next(request, body, context)
            }
            let code = answer.response.status.code
            span.attributes["http.response.status_code"] = code
            if code >= 400 { span.attributes["error.type"] = "\(code)" }
            if code >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return answer
        } catch {
            if let code = (error as? NetworkError)?.statusCode {
                span.attributes["http.response.status_code"] = code
            }
            span.attributes["error.type"] = ObservabilityNames.errorKind(error)
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }

    /// The request's attributes, in OpenTelemetry's HTTP client conventions.
    private func requestAttributes(_ request: HTTPRequest) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["http.request.method"] = request.method.rawValue
        if let url = request.url {
            attributes["url.full"] = redaction.redact(url).absoluteString
            if let host = url.host { attributes["server.address"] = host }
            if let port = url.port ?? Origin.defaultPort(scheme: url.scheme) { attributes["server.port"] = port }
        }
        return attributes
    }
}

/// Writes a tracer's propagation values (W3C `traceparent`, `tracestate`) into header fields.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}
