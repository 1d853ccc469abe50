import Foundation
import Logging
import NetworkingKit
import NetworkingKitTesting
import Testing

/// What the logging middleware writes for a call: how many lines, at which levels, with which
/// metadata.
@Suite("Logging middleware")
struct LoggingMiddlewareTests {
    @Test("one line for the request and one for the response, sharing the request id")
    func oneLinePerRequestAndResponse() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture)
        _ = try await client.response(Secrets.endpoint, as: OK.self)

        #expect(capture.records.map(\.message) == ["Sending request", "Received response"])
        let sent = try #require(capture.records("Sending request").first)
        let received = try #require(capture.records("Received response").first)
        #expect(sent.level == .debug && received.level == .debug)
        #expect(sent.metadata["http.method"] == "GET")
        #expect(sent.metadata["http.url"] == "https://api.example.com/v1/films?api_key=%3Credacted%3E&page=2")
        #expect(sent.metadata["attempt"] == "1")
        let requestID = try #require(sent.metadata["request-id"])
        #expect(requestID.count == 16 && requestID.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(received.metadata["request-id"] == requestID)
        #expect(received.metadata["http.status"] == "200")
        #expect(received.metadata["attempt"] == "1")
        #expect(received.metadata["duration-ms"].flatMap { Int($0) } != nil)
        #expect(received.metadata["cache"] == nil)
    }

    @Test("each call has its own request id")
    func requestIDsDiffer() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture)
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        let ids = capture.records("Sending request").compactMap { $0.metadata["request-id"] }
        #expect(ids.count == 2 && Set(ids).count == 2)
    }

    @Test("outermost, it logs one pair per call however many attempts the retry inside makes")
    func outermostAroundRetry() async throws {
        let capture = LogCapture()
        let retry = RetryMiddleware(policy: RetryPolicy(jitter: .none), budget: nil, clock: ImmediateClock())
        let (client, transport) = makeLoggedClient(capture, inner: [retry]) { request in
            request.attempt < 3 ? .status(.serviceUnavailable) : .json(#"{"ok":true}"#)
        }
        _ = try await client.response(Secrets.endpoint, as: OK.self)

        #expect(transport.requests.count == 3)
        #expect(capture.records("Sending request").count == 1)
        #expect(capture.records("Received response").map { $0.metadata["http.status"] } == ["200"])
        // The retries are the retry middleware's own lines, tied to the call by its request id.
        let ids = Set(capture.records.compactMap { $0.metadata["request-id"] })
        #expect(capture.records("Retrying request").count == 2)
        #expect(ids.count == 1)
    }

    @Test("inside a retry, it logs one pair per attempt with the attempt's number")
    func insideRetry() async throws {
        let capture = LogCapture()
        let retry = RetryMiddleware(policy: RetryPolicy(jitter: .none), budget: nil, clock: ImmediateClock())
        let transport = StubTransport { request in
            request.attempt < 2 ? .status(.serviceUnavailable) : .json(#"{"ok":true}"#)
        }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport, middlewares: [retry, LoggingMiddleware()],
                logger: capture.logger()))
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(capture.records("Sending request").map { $0.metadata["attempt"] } == ["1", "2"])
        #expect(capture.records("Received response").map { $0.metadata["http.status"] } == ["503", "200"])
    }

    @Test("a cached answer is logged with its cache status")
    func cacheStatus() async throws {
        let capture = LogCapture()
        let cache = HTTPCache(storage: MemoryCacheStorage())
        let (client, transport) = makeLoggedClient(capture, inner: [cache]) { _ in
            .json(#"{"ok":true}"#, headers: ["Cache-Control": "max-age=60"])
        }
        let films = TestEndpoint(path: "/films")
        _ = try await client.response(films, as: OK.self)
        _ = try await client.response(films, as: OK.self)
        #expect(transport.requests.count == 1)
        #expect(capture.records("Received response").map { $0.metadata["cache"] } == ["MISS", "HIT"])
    }

    @Test("a 4xx or 5xx answer is logged at the failure level")
    func failingStatus() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { _ in .json(#"{"message":"no"}"#, status: .notFound) }
        _ = await networkError { _ = try await client.response(Secrets.endpoint, as: OK.self) }
        let received = try #require(capture.records("Received response").first)
        #expect(received.level == .warning)
        #expect(received.metadata["http.status"] == "404")
    }

    @Test("a transport failure is one 'Request failed' line with the redacted error")
    func transportFailure() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { recorded in
            throw NetworkError.transport(
                TransportFailure(kind: .connectionLost, request: RequestSummary(recorded.request)))
        }
        _ = await networkError { _ = try await client.response(Secrets.endpoint, as: OK.self) }
        #expect(capture.records.map(\.message) == ["Sending request", "Request failed"])
        let failed = try #require(capture.records("Request failed").first)
        #expect(failed.level == .warning)
        let error = try #require(failed.metadata["error"])
        #expect(error.contains("api_key=%3Credacted%3E&page=2"))
        #expect(error.contains("transport failure"))
        #expect(failed.metadata["duration-ms"] != nil)
    }

    @Test("the levels are the caller's choice")
    func configurableLevels() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(requestLevel: .info, responseLevel: .notice, failureLevel: .error)
        let (client, _) = makeLoggedClient(capture, logging: logging) { request in
            if request.path.hasSuffix("/down") { throw NetworkError.transport(TransportFailure(kind: .notConnected)) }
            return .json(#"{"ok":true}"#)
        }
        _ = try await client.response(TestEndpoint(path: "/up"), as: OK.self)
        _ = await networkError { _ = try await client.response(TestEndpoint(path: "/down"), as: OK.self) }
        #expect(capture.records.map(\.level) == [.info, .notice, .info, .error])
    }

    @Test("a logger below the chosen levels gets nothing")
    func filteredByLevel() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture, level: .info)
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(capture.records.isEmpty)
    }

    @Test("a logger at info or warning still gets the failures, and nothing else", arguments: [Logger.Level.info, .warning])
    func failuresAboveDebug(level: Logger.Level) async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture, level: level) { request in
            if request.path.hasSuffix("/missing") { return .status(.notFound) }
            if request.path.hasSuffix("/lost") { return .failure(.transport(TransportFailure(kind: .connectionLost))) }
            return .json(#"{"ok":true}"#)
        }
        _ = await networkError { try await client.send(Request<Void>(path: "/missing")) }
        _ = await networkError { try await client.send(Request<Void>(path: "/lost")) }
        _ = try? await client.response(Secrets.endpoint, as: OK.self)
        #expect(capture.records.map(\.message) == ["Received response", "Request failed"])
        #expect(capture.records.allSatisfy { $0.level == .warning })
        #expect(capture.records.first?.metadata["http.status"] == "404")
        #expect(capture.records.last?.metadata["error"] != nil)
    }

    @Test("silent by default: the client's default logger discards, and the middleware adds no other")
    func silentByDefault() async throws {
        let configuration = LiveAPIClient.Configuration(baseURL: testBaseURL)
        #expect(configuration.logger.handler is SwiftLogNoOpLogHandler)
        // With no logger of its own, the middleware writes to the call's logger and nowhere else.
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture, logging: LoggingMiddleware())
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(capture.records.count == 2)
    }

    @Test("a logger given to the middleware is used instead of the call's, with the request id")
    func ownLogger() async throws {
        let own = LogCapture()
        let callLogger = LogCapture()
        let (client, _) = makeLoggedClient(callLogger, logging: LoggingMiddleware(logger: own.logger()))
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(own.records.map(\.message) == ["Sending request", "Received response"])
        #expect(own.records.allSatisfy { $0.metadata["request-id"] != nil })
        #expect(callLogger.records.isEmpty)
    }

    @Test("headers are logged, redacted, at trace or when asked, and not otherwise")
    func headers() async throws {
        let traced = LogCapture()
        let (client, _) = makeLoggedClient(traced)
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        let headers = try #require(traced.records("Sending request").first?.metadata["http.request.headers"])
        #expect(headers.contains("Bearer <redacted>"))
        #expect(headers.contains("x-api-key"))

        let debug = LogCapture()
        let (quiet, _) = makeLoggedClient(debug, level: .debug)
        _ = try await quiet.response(Secrets.endpoint, as: OK.self)
        #expect(debug.records.allSatisfy { $0.metadata["http.request.headers"] == nil })

        let asked = LogCapture()
        let (loud, _) = makeLoggedClient(asked, level: .debug, logging: LoggingMiddleware(logsHeaders: true))
        _ = try await loud.response(Secrets.endpoint, as: OK.self)
        #expect(asked.records("Received response").first?.metadata["http.response.headers"] != nil)
    }
}
