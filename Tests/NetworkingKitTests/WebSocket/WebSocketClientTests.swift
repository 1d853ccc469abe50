import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// `client.webSocket(_:)` on a transport of the test's own: what the chain does with an upgrade,
/// what the client checks before sending, and the keepalive on an injected clock.
@Suite("WebSocket: the client and the chain", .timeLimit(.minutes(1)))
struct WebSocketClientTests {
    /// A channel that records what the client does with it; its pings are answered or never.
    final class RecordingChannel: WebSocketChannel {
        private let state = LockedState((sent: [WebSocketMessage](), closes: [WebSocketClose](), pings: 0))
        let answersPings: Bool

        init(answersPings: Bool = true) {
            self.answersPings = answersPings
        }

        var subprotocol: String? { nil }
        var closeReceived: WebSocketClose? { nil }
        var closes: [WebSocketClose] { state.withLock { $0.closes } }
        var pings: Int { state.withLock { $0.pings } }

        func send(_ message: WebSocketMessage) async throws { state.withLock { $0.sent.append(message) } }
        func receive() async throws -> WebSocketMessage? { nil }

        func ping() async throws {
            state.withLock { $0.pings += 1 }
            // A pong that never comes: the ping ends only when cancelled.
            if !answersPings { try await Task.sleep(for: .seconds(86_400)) }
        }

        func close(_ close: WebSocketClose) async { state.withLock { $0.closes.append(close) } }
    }

    /// Answers each upgrade with the next scripted status (101 with a ``RecordingChannel``), and
    /// counts what reached it.
    final class ScriptedWebSocketTransport: WebSocketTransport {
        private let state: LockedState<(statuses: [HTTPResponse.Status], requests: [HTTPRequest])>
        let channel: RecordingChannel

        init(_ statuses: [HTTPResponse.Status], channel: RecordingChannel = RecordingChannel()) {
            state = LockedState((statuses, []))
            self.channel = channel
        }

        var requests: [HTTPRequest] { state.withLock { $0.requests } }

        func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
            Issue.record("an upgrade went to send(_:body:context:)")
            return (HTTPResponse(status: .ok), nil)
        }

        func openWebSocket(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPAnswer {
            let status = state.withLock { state in
                state.requests.append(request)
                return state.statuses.count > 1 ? state.statuses.removeFirst() : state.statuses[0]
            }
            guard status == .switchingProtocols else { return HTTPAnswer(HTTPResponse(status: status)) }
            return HTTPAnswer(HTTPResponse(status: .switchingProtocols), webSocket: channel)
        }
    }

    static let url = URL(string: "https://api.example.com/v1")!

    static func client(_ transport: any HTTPTransport, middlewares: [any Middleware] = [], clock: any Clock<Duration> = ContinuousClock())
        -> LiveAPIClient
    {
        var configuration = LiveAPIClient.Configuration(baseURL: url, transport: transport, middlewares: middlewares)
        configuration.clock = clock
        return LiveAPIClient(configuration: configuration)
    }

    @Test("the cache, de-duplication and retry step aside: a 503 is not retried, each upgrade is sent")
    func chainStepsAside() async throws {
        let transport = ScriptedWebSocketTransport([.serviceUnavailable, .switchingProtocols])
        let client = Self.client(
            transport,
            middlewares: [
                RetryMiddleware(clock: ImmediateClock()), HTTPCache(storage: MemoryCacheStorage()), RequestDeduplicator(),
            ])
        let refused = await #expect(throws: NetworkError.self) { _ = try await client.webSocket(Request<Void>(path: "/chat")) }
        #expect(refused?.statusCode == 503)
        #expect(transport.requests.count == 1)
        async let first = client.webSocket(Request<Void>(path: "/chat"))
        async let second = client.webSocket(Request<Void>(path: "/chat"))
        let connections = try await [first, second]
        #expect(connections.allSatisfy { $0.response.status == .switchingProtocols })
        #expect(transport.requests.count == 3)
        _ = try await client.webSocket(Request<Void>(path: "/chat"))
        #expect(transport.requests.count == 4)
        #expect(transport.requests.allSatisfy { $0.method == .get && $0.path == "/v1/chat" })
    }

    @Test("a 2xx instead of a 101 fails notUpgraded; a transport that cannot upgrade fails unsupported")
    func notUpgradedAndUnsupported() async throws {
        let ok = Self.client(ScriptedWebSocketTransport([.ok]))
        let error = await #expect(throws: NetworkError.self) { _ = try await ok.webSocket(Request<Void>(path: "/chat")) }
        guard case .webSocket(let failure)? = error else {
            Issue.record("expected notUpgraded, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .notUpgraded)
        #expect(failure.request?.url?.absoluteString == "https://api.example.com/v1/chat")

        let plain = Self.client(StubTransport(always: StubResponse()))
        let unsupported = await #expect(throws: NetworkError.self) { _ = try await plain.webSocket(Request<Void>(path: "/chat")) }
        #expect(unsupported == .webSocket(WebSocketFailure(kind: .unsupported)))
    }

    @Test("checked before sending: a GET with no body, a positive size within 32 bits; ws and wss stand for http and https")
    func checkedBeforeSending() async throws {
        let transport = ScriptedWebSocketTransport([.switchingProtocols])
        let client = Self.client(transport)
        for (endpoint, options) in [
            (Request<Void>(path: "/chat", method: .post), WebSocketOptions()),
            (Request<Void>(path: "/chat"), WebSocketOptions(maximumMessageSize: 0)),
            (Request<Void>(path: "/chat"), WebSocketOptions(pingInterval: .zero)),
        ] {
            let error = await #expect(throws: NetworkError.self) { _ = try await client.webSocket(endpoint, options: options) }
            guard case .invalidRequest? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                continue
            }
        }
        #expect(transport.requests.isEmpty)

        struct Live: APIEndpoint {
            var baseURL: URL { URL(string: "wss://stream.example.com")! }
            var path: String { "/live" }
        }
        _ = try await client.webSocket(Live())
        #expect(transport.requests.last?.scheme == "https")
        #expect(transport.requests.last?.authority == "stream.example.com")
    }

    @Test("close: a code that may not be sent becomes 1000, a long reason is cut at a character to 123 bytes")
    func closeFrameContents() async throws {
        let transport = ScriptedWebSocketTransport([.switchingProtocols])
        let connection = try await Self.client(transport).webSocket(Request<Void>(path: "/chat"))
        await connection.close(code: .abnormalClosure, reason: String(repeating: "é", count: 100))
        let close = try #require(transport.channel.closes.first)
        #expect(close.code == .normalClosure)
        #expect(close.reason.utf8.count == 122)
        #expect(WebSocketCloseCode(rawValue: 4001).canBeSent && !WebSocketCloseCode.noStatusReceived.canBeSent)
        #expect(WebSocketCloseCode.messageTooBig.description == "1009 (message too big)")
    }

    @Test("a reconnecting socket: a 503 announces a reconnection; closing it ends the wait at once, nothing more sent")
    func closeDuringBackoff() async throws {
        let clock = ManualClock()
        let transport = ScriptedWebSocketTransport([.serviceUnavailable])
        var reconnection = WebSocketReconnection()
        reconnection.clock = clock
        let live = Self.client(transport).webSocket(Request<Void>(path: "/chat"), reconnection: reconnection)
        var updates = live.updates.makeAsyncIterator()
        guard case .reconnecting(_, let reason)? = try await updates.next() else {
            Issue.record("expected a reconnection")
            return
        }
        #expect(reason.statusCode == 503)
        let rest = Task { [updates] in
            var updates = updates
            return try await updates.next()
        }
        await waitUntil { clock.sleeperCount == 1 }
        await live.close()
        #expect(try await rest.value == nil)
        #expect(transport.requests.count == 1)
    }

    @Test("keepalive on the client's clock: a ping each interval; no pong by the next closes with 1001")
    func keepalive() async throws {
        let clock = ManualClock()
        let answering = ScriptedWebSocketTransport([.switchingProtocols])
        let live = try await Self.client(answering, clock: clock).webSocket(
            Request<Void>(path: "/chat"), options: WebSocketOptions(pingInterval: .seconds(30)))
        for round in 1...3 {
            await waitUntil { clock.sleeperCount == 1 && answering.channel.pings == round - 1 }
            clock.advance(by: .seconds(30))
            await waitUntil { answering.channel.pings == round }
        }
        #expect(answering.channel.closes.isEmpty)
        await live.close()

        let silent = ScriptedWebSocketTransport([.switchingProtocols], channel: RecordingChannel(answersPings: false))
        let dead = try await Self.client(silent, clock: clock).webSocket(
            Request<Void>(path: "/chat"), options: WebSocketOptions(pingInterval: .seconds(30)))
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(30))
        await waitUntil { silent.channel.pings == 1 && clock.sleeperCount == 1 }
        #expect(silent.channel.closes.isEmpty)
        clock.advance(by: .seconds(30))
        await waitUntil { !silent.channel.closes.isEmpty }
        #expect(silent.channel.closes == [WebSocketClose(code: .goingAway, reason: "no pong")])
        _ = dead
    }
}
