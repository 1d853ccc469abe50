import InMemoryTracing
import Instrumentation
import Tracing
import W3CTraceContext

/// A tracer that propagates W3C Trace Context the way an OpenTelemetry tracer does.
///
/// Spans are recorded by an `InMemoryTracer` given W3C-sized random ids; `inject` writes
/// `traceparent` with swift-w3c-trace-context, the codec swift-otel's W3C propagator uses, and
/// `extract` reads it back, so a test can play both the calling service and the called one.
struct W3CTracer: Tracer {
    let recorder = InMemoryTracer(
        idGenerator: InMemoryTracer.IDGenerator(
            nextTraceID: { TraceID.random().description },
            nextSpanID: { SpanID.random().description }
        ))

    static let traceParent = "traceparent"

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext,
            let traceContext = try? TraceContext(traceParentHeaderValue: "00-\(span.traceID)-\(span.spanID)-01")
        else { return }
        injector.inject(traceContext.traceParentHeaderValue, forKey: Self.traceParent, into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let value = extractor.extract(key: Self.traceParent, from: carrier),
            let traceContext = try? TraceContext(traceParentHeaderValue: value)
        else { return }
        context.inMemorySpanContext = InMemorySpanContext(
            traceID: traceContext.traceID.description, spanID: traceContext.spanID.description, parentSpanID: nil)
    }

    var finishedSpans: [FinishedInMemorySpan] { recorder.finishedSpans }
}
