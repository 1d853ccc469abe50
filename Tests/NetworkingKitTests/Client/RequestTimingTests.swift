import Foundation
import HTTPTypes
import Logging
import MetricsTestKit
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// A transport that reports a timing of its own: exchange `n` has `dns` of `n` ms, its
/// connection reused from the second on, so a test can tell which exchange a timing is from.
private final class TimedTransport: TimedHTTPTransport {
    private let count = LockedCount()
    private let answer: @Sendable (HTTPRequest) -> (HTTPResponse, HTTPBody?)

    init(_ answer: @escaping @Sendable (HTTPRequest) -> (HTTPResponse, HTTPBody?)) {
        self.answer = answer
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await timedSend(request, body: body, context: context)
        return (answer.response, answer.body)
    }

    func timedSend(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> HTTPAnswer {
        let exchange = count.next()
        var timing = RequestTiming()
        timing.reusedConnection = exchange > 1
        timing.dns = .milliseconds(exchange)
        timing.connect = .milliseconds(exchange * 2)
        timing.tlsHandshake = .milliseconds(exchange * 3)
        timing.firstByte = .milliseconds(exchange * 10)
        let (response, responseBody) = answer(request)
        var answer = HTTPAnswer(response, body: responseBody)
        answer.timing = timing
        return answer
    }

    final class LockedCount: Sendable {
        private let value = LockedState(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }
}

private func json(_ status: HTTPResponse.Status = .ok, headers: [HTTPField] = []) -> (HTTPResponse, HTTPBody?) {
    var fields = HTTPFields(headers)
    fields[.contentType] = "application/json"
    return (HTTPResponse(status: status, headerFields: fields), HTTPBody(Data(#"{"ok":true}"#.utf8)))
}

private func client(_ transport: TimedTransport, middlewares: [any Middleware] = [], logger: Logger? = nil) -> LiveAPIClient {
    var configuration = LiveAPIClient.Configuration(
        baseURL: URL(string: "https://api.example.com")!, transport: transport, middlewares: middlewares)
    if let logger { configuration.logger = logger }
    return LiveAPIClient(configuration: configuration)
}

@Suite("Request timing")
struct RequestTimingTests {
    @Test("a transport that reports nothing gets the start, first byte and last byte measured for it")
    func defaultTiming() async throws {
        let before = Date()
        let (client, _) = makeClient { _ in .json(#"{"ok":true}"#) }
        let response = try await client.response(Request<OK>(path: "/films"))
        let timing = try #require(response.timing)
        #expect(timing.start >= before.addingTimeInterval(-1) && timing.start <= Date().addingTimeInterval(1))
        let firstByte = try #require(timing.firstByte)
        let lastByte = try #require(timing.lastByte)
        #expect(firstByte >= .zero && firstByte <= lastByte)
        #expect(lastByte <= response.duration)
        #expect(timing.reusedConnection == nil && timing.dns == nil && timing.connect == nil && timing.requestSent == nil)
    }

    @Test("a redirected call's timing is its last hop's; a retried call's, its last attempt's")
    func lastExchange() async throws {
        let redirecting = TimedTransport { request in
            request.path == "/old" ? (HTTPResponse(status: .found, headerFields: [.location: "/new"]), nil) : json()
        }
        let redirected = try await client(redirecting).response(Request<OK>(path: "/old"))
        #expect(redirected.wasRedirected)
        #expect(redirected.timing?.dns == .milliseconds(2))
        #expect(redirected.timing?.reusedConnection == true)

        let failing = LockedState(0)
        let flaky = TimedTransport { _ in
            failing.withLock {
                $0 += 1; return $0
            } == 1 ? json(.serviceUnavailable) : json()
        }
        let retry = RetryMiddleware(policy: RetryPolicy(jitter: .none), budget: nil, clock: ImmediateClock())
        let retried = try await client(flaky, middlewares: [retry]).response(Request<OK>(path: "/films"))
        #expect(retried.timing?.dns == .milliseconds(2))
        #expect(retried.timing?.lastByte != nil)
    }

    @Test("a cache hit sent nothing and has no timing; a revalidated answer has the 304 exchange's")
    func cache() async throws {
        let transport = TimedTransport { request in
            if request.headerFields[.ifNoneMatch] == #""v1""# {
                return (HTTPResponse(status: .notModified, headerFields: [.eTag: #""v1""#, .cacheControl: "max-age=0"]), nil)
            }
            return json(headers: [HTTPField(name: .eTag, value: #""v1""#), HTTPField(name: .cacheControl, value: "max-age=0")])
        }
        let cached = client(transport, middlewares: [HTTPCache(storage: MemoryCacheStorage())])
        let first = try await cached.response(Request<OK>(path: "/films"))
        #expect(first.cacheStatus == .miss && first.timing?.dns == .milliseconds(1))
        let second = try await cached.response(Request<OK>(path: "/films"))
        #expect(second.cacheStatus == .revalidated && second.timing?.dns == .milliseconds(2))

        let fresh = TimedTransport { _ in json(headers: [HTTPField(name: .cacheControl, value: "max-age=600")]) }
        let hits = client(fresh, middlewares: [HTTPCache(storage: MemoryCacheStorage())])
        _ = try await hits.response(Request<OK>(path: "/films"))
        let hit = try await hits.response(Request<OK>(path: "/films"))
        #expect(hit.cacheStatus == .hit && hit.timing == nil)
    }

    @Test("a streamed answer has its timing up to the head; its last byte is the reader's")
    func streamed() async throws {
        let response = try await client(TimedTransport { _ in json() }).bytes(Request<Data>(path: "/ndjson"))
        #expect(response.timing?.firstByte == .milliseconds(10))
        #expect(response.timing?.lastByte == nil)
        for try await _ in response.body {}
    }

    @Test("phases keep their value, nil included; the wall-clock start is the monotonic start's")
    func storage() {
        let before = Date()
        var timing = RequestTiming()
        #expect(timing.firstByte == nil)
        timing.firstByte = .nanoseconds(1_234_567)
        timing.requestSent = .zero
        timing.lastByte = .seconds(Int64.max)
        #expect(timing.firstByte == .nanoseconds(1_234_567))
        #expect(timing.requestSent == .zero)
        #expect(timing.lastByte == .seconds(Int64.max))
        timing.firstByte = nil
        #expect(timing.firstByte == nil)
        #expect(abs(timing.start.timeIntervalSince(before)) < 1)
        var answer = HTTPAnswer(HTTPResponse(status: .ok))
        #expect(answer.timing == nil)
        answer.timing = timing
        #expect(answer.timing == timing)
    }

    @Test("the response line logs the first byte, the connection and its phases")
    func logged() async throws {
        let capture = LogCapture()
        let transport = TimedTransport { _ in json() }
        let logged = client(transport, middlewares: [LoggingMiddleware()], logger: capture.logger(level: .debug))
        _ = try await logged.response(Request<OK>(path: "/films"))
        _ = try await logged.response(Request<OK>(path: "/films"))
        let received = capture.records("Received response").map(\.metadata)
        #expect(received.count == 2)
        #expect(received.first?["ttfb-ms"] == "10")
        #expect(received.first?["connection"] == "new")
        #expect(received.first?["dns-ms"] == "1" && received.first?["connect-ms"] == "2" && received.first?["tls-ms"] == "3")
        #expect(received.last?["connection"] == "reused")
    }

    @Test("metrics: time to first byte per outcome, and connections new or reused with their connect and TLS times")
    func metrics() async throws {
        let metrics = TestMetrics()
        let transport = TimedTransport { _ in json() }
        let measured = client(transport, middlewares: [MetricsMiddleware(factory: metrics)])
        _ = try await measured.response(Request<OK>(path: "/films"))
        _ = try await measured.response(Request<OK>(path: "/films"))
        let firstBytes = metrics.timers(label: "networkingkit_time_to_first_byte").flatMap(\.values)
        #expect(firstBytes.sorted() == [10_000_000, 20_000_000])
        let uses = "networkingkit_connection_uses_total"
        #expect(metrics.counterTotal(label: uses, dimensions: [("reused", "false")]) == 1)
        #expect(metrics.counterTotal(label: uses, dimensions: [("reused", "true")]) == 1)
        // Only the new connection was opened: a reused one's phases are not its own.
        #expect(metrics.timers(label: "networkingkit_connect_duration").flatMap(\.values) == [2_000_000])
        #expect(metrics.timers(label: "networkingkit_tls_handshake_duration").flatMap(\.values) == [3_000_000])
    }
}
