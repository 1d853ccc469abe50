import Foundation
import HTTPTypes
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// A middleware that runs a closure around the rest of the chain.
struct ProbeMiddleware: Middleware {
    let run: @Sendable (HTTPRequest, HTTPBody?, RequestContext, MiddlewareNext) async throws -> HTTPAnswer

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        try await run(request, body, context, next)
    }
}

/// Secrets that reached the log by paths other than the request's own headers and URL, and the
/// cost of logging when nothing is logged.
@Suite("Logging: values, errors, cuts and streams")
struct LoggingSecretPathsTests {
    struct Boom: Error, Equatable {}

    @Test("a declared query parameter inside a response's Link header is hidden")
    func linkHeader() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { _ in
            .json(#"{"ok":true}"#, headers: ["Link": "<https://api.example.com/v1/films?page=3&api_key=l1nk-secret>; rel=\"next\""])
        }
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        let headers = try #require(capture.records("Received response").first?.metadata["http.response.headers"])
        #expect(headers.contains("page=3"))
        #expect(!capture.records.map(\.rendered).joined().contains("l1nk-secret"))
    }

    @Test("an error logged by an inner middleware is redacted")
    func innerError() async throws {
        let capture = LogCapture()
        let probe = ProbeMiddleware { request, body, context, next in
            let url = try #require(URL(string: "https://api.example.com/v1/films?api_key=\(Secrets.queryKey)"))
            let error = NetworkError.transport(
                TransportFailure(
                    kind: .connectionLost, underlying: URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: url]),
                    request: RequestSummary(request)))
            context.logger.warning("x", error: error)
            return try await next(request, body, context)
        }
        let (client, _) = makeLoggedClient(capture, inner: [probe])
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        let record = try #require(capture.records("x").first)
        let error = try #require(record.error)
        #expect(!error.contains(Secrets.queryKey))
        #expect(Secrets.leaks(in: capture.records) == [])
    }

    @Test("a metadata provider's values are redacted for inner middlewares")
    func metadataProvider() async throws {
        let capture = LogCapture()
        let probe = ProbeMiddleware { request, body, context, next in
            context.logger.info("provided")
            return try await next(request, body, context)
        }
        let provider = Logger.MetadataProvider { ["url": "/films?api_key=\(Secrets.queryKey)"] }
        let transport = StubTransport { _ in .json(#"{"ok":true}"#) }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport,
                middlewares: [LoggingMiddleware(redaction: Secrets.redaction), probe],
                logger: capture.logger(metadataProvider: provider)))
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        let record = try #require(capture.records("provided").first)
        #expect(record.metadata["url"] == "/films?api_key=%3Credacted%3E")
    }

    /// A client whose logging middleware is inside `outer`, which reads the whole body the
    /// logging middleware hands on (recording the outcome) and answers `{"ok":true}`.
    static func clientReadingBody(
        _ capture: LogCapture, bodies: BodyLogging, outcome: LockedState<String>, beforeReading: @escaping @Sendable () -> Void = {},
        _ handler: @escaping StubTransport.Handler
    ) -> LiveAPIClient {
        let outer = ProbeMiddleware { request, body, context, next in
            var answer = try await next(request, body, context)
            beforeReading()
            do {
                let data = try await answer.body?.collect(upTo: 1 << 20) ?? Data()
                outcome.withLock { $0 = "\(data.count) bytes" }
            } catch {
                outcome.withLock { $0 = String(describing: error) }
            }
            answer.response.headerFields[.contentType] = "application/json"
            answer.body = HTTPBody(#"{"ok":true}"#)
            return answer
        }
        let logging = LoggingMiddleware(redaction: Secrets.redaction, logsBodies: bodies)
        return LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: StubTransport(handler), middlewares: [outer, logging],
                logger: capture.logger()))
    }

    @Test("a body cut inside a known secret shows none of it")
    func cutInsideSecret() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(redaction: Secrets.redaction, logsBodies: .text(maxBytes: 25))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in
            .json(#"{"message":"your key \#(Secrets.queryKey) is bad"}"#, status: .forbidden)
        }
        _ = await networkError { _ = try await client.response(Secrets.endpoint, as: OK.self) }
        let body = try #require(capture.records("Received response").first?.metadata["http.response.body"])
        #expect(body.hasPrefix(#"{"message":"your key "#))
        #expect(!body.contains(String(Secrets.queryKey.prefix(4))))
    }

    /// A stream of `count` chunks of `size` bytes, declaring its length, that throws ``Boom``
    /// after `failAfter` chunks and counts the chunks pulled from it.
    static func stream(chunks count: Int, size: Int, failAfter: Int? = nil, pulled: LockedState<Int>) -> HTTPBody {
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            for index in 0..<count {
                if index == failAfter {
                    continuation.finish(throwing: Boom())
                    return
                }
                continuation.yield(Data(repeating: UInt8(ascii: "a"), count: size))
            }
            continuation.finish()
        }
        let counted = chunks.map { chunk in
            pulled.withLock { $0 += 1 }
            return chunk
        }
        return HTTPBody(counted, length: .known(Int64(count * size)), iterationBehavior: .single)
    }

    @Test("a stream failing midway gives the caller the same error with and without body logging")
    func failingStream() async throws {
        var outcomes: [String] = []
        for bodies in [BodyLogging.none, .text(maxBytes: 1000)] {
            let outcome = LockedState("")
            let client = Self.clientReadingBody(LogCapture(), bodies: bodies, outcome: outcome) { _ in
                StubResponse(
                    headers: ["Content-Type": "text/plain"],
                    body: Self.stream(chunks: 4, size: 100, failAfter: 2, pulled: LockedState(0)))
            }
            _ = try await client.response(TestEndpoint(path: "/films"), as: OK.self)
            outcomes.append(outcome.withLock { $0 })
        }
        #expect(outcomes[0] == String(describing: Boom()))
        #expect(outcomes[1] == outcomes[0])
    }

    @Test("a large stream of known length is not read whole to be logged")
    func largeStreamNotBuffered() async throws {
        let capture = LogCapture()
        let pulled = LockedState(0)
        let pulledBeforeReading = LockedState(-1)
        let outcome = LockedState("")
        let client = Self.clientReadingBody(
            capture, bodies: .text(maxBytes: 50), outcome: outcome,
            beforeReading: { pulledBeforeReading.withLock { $0 = pulled.withLock { $0 } } }
        ) { _ in
            StubResponse(headers: ["Content-Type": "text/plain"], body: Self.stream(chunks: 100, size: 100, pulled: pulled))
        }
        _ = try await client.response(TestEndpoint(path: "/films"), as: OK.self)
        #expect(outcome.withLock { $0 } == "10000 bytes")
        #expect(pulledBeforeReading.withLock { $0 } < 10)
        let body = try #require(capture.records("Received response").first?.metadata["http.response.body"])
        #expect(body == String(repeating: "a", count: 50) + "… (10000 bytes, truncated)")
    }

    @Test("with a logger at critical and a no-op call logger, nothing is logged or wrapped")
    func nothingWhenDropped() async throws {
        let capture = LogCapture()
        let sawOriginal = LockedState(false)
        let probe = ProbeMiddleware { request, body, context, next in
            sawOriginal.withLock { $0 = context.logger.handler is SwiftLogNoOpLogHandler }
            return try await next(request, body, context)
        }
        let logging = LoggingMiddleware(logger: capture.logger(level: .critical), redaction: Secrets.redaction)
        let transport = StubTransport { _ in .json(#"{"ok":true}"#) }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport, middlewares: [logging, probe]))
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(sawOriginal.withLock { $0 })
        #expect(capture.records.isEmpty)
    }
}
