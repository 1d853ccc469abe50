import DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

/// WebSocket connections against DemoAPI's `/ws` routes, over every transport that opens them:
/// `NIOTransport` everywhere, `URLSessionTransport` on Apple platforms. FoundationNetworking on
/// Linux has no WebSocket support in this toolchain: it fails at once, typed (tested below).
@Suite("Conformance: WebSocket", .timeLimit(.minutes(5)))
struct WebSocketConformanceTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case nio
        case urlSession

        var transport: any HTTPTransport {
            switch self {
            case .nio: NIOTransport.shared
            case .urlSession: URLSessionTransport.shared
            }
        }

        /// The transports that open WebSocket connections on this platform.
        static var opening: [Kind] {
            #if canImport(FoundationNetworking)
            [.nio]
            #else
            allCases
            #endif
        }

        var testDescription: String { rawValue }
    }

    static func client(_ server: DemoServer, _ kind: Kind, middlewares: [any Middleware] = []) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: kind.transport, middlewares: middlewares, timeout: .seconds(60)))
    }

    static func endpoint(_ path: String, _ query: [String: String] = [:]) -> Request<Void> {
        Request<Void>(path: path, query: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// The counters of DemoAPI's WebSocket routes.
    struct Counters: Decodable, Sendable {
        let upgrades: [String: Int]
        let open: Int
    }

    /// The connections DemoAPI has open, once they are none or after 6,000 polls 10 ms apart: the
    /// server notices a close a moment after the client has finished it.
    static func openOnServer(_ client: LiveAPIClient) async throws -> Int {
        var open = try await client.send(Request<Counters>(path: "/ws/stats")).open
        for _ in 0..<6000 where open > 0 {
            try await Task.sleep(for: .milliseconds(10))
            open = try await client.send(Request<Counters>(path: "/ws/stats")).open
        }
        return open
    }

    @Test("echo: text, binary, a 1 MiB message, a message the server split over frames", arguments: Kind.opening)
    func echo(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let connection = try await client.webSocket(Self.endpoint("/ws/echo"))
            #expect(connection.response.status == .switchingProtocols)
            var messages = connection.messages.makeAsyncIterator()
            try await connection.send(.text("hello, wörld"))
            #expect(try await messages.next() == .text("hello, wörld"))
            try await connection.send(.binary(Data([0, 1, 2, 255])))
            #expect(try await messages.next() == .binary(Data([0, 1, 2, 255])))
            let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try await connection.send(.binary(big))
            #expect(try await messages.next() == .binary(big))
            // Echoes on their way when the app closes still reach its reader, then the end.
            try await connection.send(.text("one"))
            try await connection.send(.text("two"))
            await connection.close()
            #expect(try await messages.next() == .text("one"))
            #expect(try await messages.next() == .text("two"))
            #expect(try await messages.next() == nil)
            #expect(connection.closeFrame?.code == .normalClosure)

            let fragments = try await client.webSocket(Self.endpoint("/ws/fragments"))
            var fragmentMessages = fragments.messages.makeAsyncIterator()
            #expect(try await fragmentMessages.next() == .text("one two three"))
            await fragments.close()
        }
    }

    @Test(
        "permessage-deflate: negotiated by default, a compressible 1 MiB message and the small ones after it echo whole; off on request",
        arguments: Kind.opening)
    func compression(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            // Exactly the default limit, 1 MiB, once inflated.
            let text = String(String(repeating: #"{"id":42,"title":"Buy milk","done":false},"#, count: 30_000).prefix(1 << 20))
            for compression in [WebSocketCompression.perMessageDeflate, .disabled] {
                let connection = try await client.webSocket(Self.endpoint("/ws/echo"), options: WebSocketOptions(compression: compression))
                if kind == .nio {
                    let negotiated = connection.response.headerFields[.secWebSocketExtensions]
                    #expect(negotiated == (compression.isEnabled ? "permessage-deflate" : nil))
                }
                var messages = connection.messages.makeAsyncIterator()
                try await connection.send(.text(text))
                #expect(try await messages.next() == .text(text))
                // The compression context carries over from one message to the next.
                for index in 0..<50 {
                    let small = "message \(index) " + String(repeating: "abc", count: index * 10)
                    try await connection.send(.text(small))
                    #expect(try await messages.next() == .text(small))
                }
                await connection.close()
                #expect(connection.closeFrame?.code == .normalClosure)
            }
        }
    }

    @Test("ping waits for its pong; the server's close code and reason are read; ours is answered", arguments: Kind.opening)
    func pingAndClose(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let echo = try await client.webSocket(Self.endpoint("/ws/echo"))
            try await echo.ping()
            try await echo.ping()
            await echo.close(code: WebSocketCloseCode(rawValue: 4002), reason: "done here")
            // The server answers with a close frame of its own (Hummingbird's says 1000).
            #expect(echo.closeFrame != nil)
            // Closed: sending fails, typed; closing again does nothing.
            let afterClose = await networkError { try await echo.send(.text("late")) }
            guard case .webSocket(let failure)? = afterClose else {
                Issue.record("expected a WebSocket failure, got \(String(describing: afterClose))")
                return
            }
            #expect(failure.kind == .closed)
            await echo.close()

            let closing = try await client.webSocket(Self.endpoint("/ws/close", ["code": "4001", "reason": "bye"]))
            var count = 0
            for try await _ in closing.messages { count += 1 }
            #expect(count == 0)
            #expect(closing.closeFrame == WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "bye"))
        }
    }

    @Test("a message over the limit: 1009 sent, messageTooLarge thrown, whether in one frame or many", arguments: Kind.opening)
    func sizeLimit(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            for frame in [1 << 21, 16 * 1024] {
                let connection = try await client.webSocket(
                    Self.endpoint("/ws/big", ["size": "\(1 << 21)", "frame": "\(frame)"]),
                    options: WebSocketOptions(maximumMessageSize: 1 << 20))
                let error = await networkError {
                    for try await _ in connection.messages {}
                }
                guard case .webSocket(let failure)? = error else {
                    Issue.record("expected a WebSocket failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.kind == .messageTooLarge)
                #expect(failure.close?.code == .messageTooBig)
                await connection.close()
            }
            // Within the limit, the same message arrives whole.
            let roomy = try await client.webSocket(
                Self.endpoint("/ws/big", ["size": "\(1 << 21)", "frame": "16384"]), options: WebSocketOptions(maximumMessageSize: 1 << 22))
            var messages = roomy.messages.makeAsyncIterator()
            #expect(try await messages.next()?.byteCount == 1 << 21)
            await roomy.close()
        }
    }

    @Test("the upgrade through the chain: a 401 refreshes once and connects; anonymous fails unauthorized", arguments: Kind.opening)
    func authentication(kind: Kind) async throws {
        try await withDemoServer { server in
            let manager = AuthManager(client: Self.client(server, kind))
            let client = Self.client(server, kind, middlewares: [manager.middleware])
            let anonymous = await networkError { _ = try await client.webSocket(Self.endpoint("/ws/auth")) }
            #expect(anonymous?.statusCode == 401)

            _ = try await manager.login(username: "woody", password: "andy")
            try await Self.client(server, kind).send(
                Request<Void>(path: "/auth/expire", method: .post, query: [URLQueryItem(name: "username", value: "woody")]))
            let connection = try await client.webSocket(Self.endpoint("/ws/auth"))
            try await connection.send(.text("signed in"))
            var messages = connection.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("signed in"))
            await connection.close()
            #expect(server.stats.snapshot.refreshes == 1)
            let counters = try await Self.client(server, kind).send(Request<Counters>(path: "/ws/stats"))
            #expect(counters.upgrades["/ws/auth"] == 1)
        }
    }

    @Test("a redirected upgrade follows the policy; a route that is not WebSocket fails with its status", arguments: Kind.opening)
    func redirectAndNotUpgraded(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let connection = try await client.webSocket(Self.endpoint("/ws/redirect"))
            #expect(connection.redirectChain.map(\.path) == ["/ws/redirect", "/ws/echo"])
            try await connection.send(.text("moved"))
            var messages = connection.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("moved"))
            await connection.close()

            // Hummingbird answers an upgrade it declines with a bare 400 (a 2xx would be notUpgraded:
            // see WebSocketClientTests).
            let notWebSocket = await networkError { _ = try await client.webSocket(Self.endpoint("/films")) }
            #expect(notWebSocket?.statusCode == 400)
        }
    }

    @Test("the server going away without a close frame ends the reader with connectionLost", arguments: Kind.opening)
    func serverGoesAway(kind: Kind) async throws {
        try await withDemoServer { server in
            let connection = try await Self.client(server, kind).webSocket(Self.endpoint("/ws/drop"))
            try await connection.send(.text("bye"))
            let error = await networkError {
                for try await _ in connection.messages {}
            }
            guard case .webSocket(let failure)? = error else {
                Issue.record("expected connectionLost, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .connectionLost)
            #expect(connection.closeFrame == nil)
        }
    }

    @Test("cancelling the reading task throws cancelled and closes the connection", arguments: Kind.opening)
    func cancellation(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let connection = try await client.webSocket(Self.endpoint("/ws/echo"))
            // The read is waiting (the server says nothing until spoken to) when it is cancelled.
            let reader = Task { await networkError { for try await _ in connection.messages {} } }
            try await connection.ping()
            reader.cancel()
            let error = await reader.value
            #expect(error == .cancelled)
            // Closed on the server too.
            #expect(try await Self.openOnServer(client) == 0)
        }
    }

    @Test("a subprotocol offered and chosen; a chat room between two connections", arguments: Kind.opening)
    func subprotocolAndRoom(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let chat = try await client.webSocket(
                Self.endpoint("/ws/protocol"), options: WebSocketOptions(subprotocols: ["chat.v2", "chat.v1"]))
            #expect(chat.subprotocol == "chat.v2")
            await chat.close()

            let alice = try await client.webSocket(Self.endpoint("/ws/room"))
            let bob = try await client.webSocket(Self.endpoint("/ws/room"))
            // Both are members once each has seen its own first message come back.
            var aliceMessages = alice.messages.makeAsyncIterator()
            var bobMessages = bob.messages.makeAsyncIterator()
            try await alice.send(.text("alice here"))
            #expect(try await aliceMessages.next() == .text("alice here"))
            try await bob.send(.text("bob here"))
            // Bob may have joined before Alice spoke.
            var bobSaw: [WebSocketMessage] = []
            while bobSaw.last != .text("bob here"), bobSaw.count < 3, let message = try await bobMessages.next() { bobSaw.append(message) }
            #expect(bobSaw.last == .text("bob here"))
            #expect(try await aliceMessages.next() == .text("bob here"))
            await alice.close()
            await bob.close()
        }
    }

    @Test("reconnection: a lost connection comes back with onConnect run again; a 401 or a normal close ends it", arguments: Kind.opening)
    func reconnection(kind: Kind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            var reconnection = WebSocketReconnection()
            reconnection.backoff = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(50))
            // /ws/drop drops the connection after the first message: the subscription each time.
            reconnection.onConnect = { try await $0.send(.text("subscribe")) }
            let live = client.webSocket(Self.endpoint("/ws/drop"), reconnection: reconnection)
            var connections = 0
            var reconnections = 0
            for try await update in live.updates {
                switch update {
                case .connected: connections += 1
                case .message: Issue.record("/ws/drop sends nothing")
                case .reconnecting(_, let reason):
                    reconnections += 1
                    #expect(reason == .webSocket(WebSocketFailure(kind: .connectionLost)))
                }
                if connections == 3 { await live.close() }
            }
            #expect(connections == 3)
            #expect(reconnections == 2)
            let counters = try await client.send(Request<Counters>(path: "/ws/stats"))
            #expect(counters.upgrades["/ws/drop"] == 3)

            // Refused for good: the error, no second attempt.
            let refused = client.webSocket(Self.endpoint("/ws/auth"), reconnection: reconnection)
            let error = await networkError { for try await _ in refused.updates {} }
            #expect(error?.statusCode == 401)

            // The server ended the conversation (1000): the updates end; going away (1012): it comes back.
            reconnection.onConnect = nil
            let ended = client.webSocket(Self.endpoint("/ws/close", ["code": "1000"]), reconnection: reconnection)
            var endedUpdates: [String] = []
            for try await update in ended.updates {
                if case .connected = update { endedUpdates.append("connected") } else { endedUpdates.append("\(update)") }
            }
            #expect(endedUpdates == ["connected"])
            let restarting = client.webSocket(Self.endpoint("/ws/close", ["code": "1012"]), reconnection: reconnection)
            var restarts = 0
            for try await update in restarting.updates {
                if case .reconnecting(_, let reason) = update {
                    restarts += 1
                    #expect(
                        reason
                            == .webSocket(WebSocketFailure(kind: .closed, close: WebSocketClose(code: WebSocketCloseCode(rawValue: 1012)))))
                    await restarting.close()
                }
            }
            #expect(restarts == 1)
        }
    }

    @Test("1,000 connections opened and closed: none left open on either side")
    func manyConnections() async throws {
        try await withDemoServer { server in
            let client = Self.client(server, .nio)
            for index in 0..<1000 {
                let connection = try await client.webSocket(Self.endpoint("/ws/echo"))
                if index % 100 == 0 { try await connection.ping() }
                await connection.close()
            }
            let counters = try await client.send(Request<Counters>(path: "/ws/stats"))
            #expect(counters.upgrades["/ws/echo"] == 1000)
            #expect(try await Self.openOnServer(client) == 0)
            // Of this process's sockets to the server, only the pooled HTTP connection of the stats calls is left.
            #expect(openConnections(toPort: server.port) <= 1)
        }
    }

    @Test("a transport that cannot open WebSocket connections fails at once, typed: AsyncHTTPClient, and URLSession on Linux")
    func unsupported() async throws {
        try await withDemoServer { server in
            var kinds: [any HTTPTransport] = [AsyncHTTPClientTransport()]
            #if canImport(FoundationNetworking)
            kinds.append(URLSessionTransport.shared)
            #endif
            for transport in kinds {
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                let error = await networkError { _ = try await client.webSocket(Self.endpoint("/ws/echo")) }
                guard case .webSocket(let failure)? = error else {
                    Issue.record("expected unsupported over \(type(of: transport)), got \(String(describing: error))")
                    continue
                }
                #expect(failure.kind == .unsupported)
                #expect(error?.localizedDescription == "Live updates are not available on this device.")
            }
            let counters = try await LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
                .send(Request<Counters>(path: "/ws/stats"))
            #expect(counters.upgrades.isEmpty)
        }
    }
}

/// What `NIOTransport` does with a server that breaks the WebSocket protocol: a typed failure, the
/// connection closed, and never a crash (ByteFaultServer's scripted answers).
@Suite("WebSocket: hostile servers", .timeLimit(.minutes(3)))
struct WebSocketHostileServerTests {
    static func failure(_ body: () async throws -> Void) async -> WebSocketFailure? {
        guard case .webSocket(let failure)? = await networkError(body) else { return nil }
        return failure
    }

    @Test(
        "a broken handshake fails invalidHandshake; a 200 fails notUpgraded",
        arguments: [
            ("/ws-bad-accept", WebSocketFailure.Kind.invalidHandshake), ("/ws-no-connection", .invalidHandshake),
            ("/ws-extension-greeting", .invalidHandshake), ("/ws-deflate-window", .invalidHandshake),
            ("/ws-subprotocol", .invalidHandshake), ("/plain", .notUpgraded),
        ])
    func handshake(path: String, kind: WebSocketFailure.Kind) async throws {
        let server = try await ByteFaultServer.start()
        let client = LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
        let failure = await Self.failure { _ = try await client.webSocket(Request<Void>(path: path)) }
        await server.stop()
        #expect(failure?.kind == kind, "\(path): \(String(describing: failure))")
    }

    @Test(
        "a hostile frame after a good handshake: the reader fails, typed, with the code sent for it",
        arguments: [
            ("/ws-masked", WebSocketFailure.Kind.protocolViolation, WebSocketCloseCode?.none),
            ("/ws-invalid-utf8", .protocolViolation, .invalidPayload), ("/ws-huge-frame", .messageTooLarge, .messageTooBig),
            ("/ws-deflate-bomb", .messageTooLarge, .messageTooBig), ("/ws-deflate-corrupt", .protocolViolation, .protocolError),
            ("/ws-rsv1", .protocolViolation, nil), ("/ws-rsv1-continuation", .protocolViolation, nil),
        ])
    func hostileFrame(path: String, kind: WebSocketFailure.Kind, code: WebSocketCloseCode?) async throws {
        let server = try await ByteFaultServer.start()
        let client = LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
        let connection = try await client.webSocket(Request<Void>(path: path))
        let failure = await Self.failure { for try await _ in connection.messages {} }
        #expect(failure?.kind == kind, "\(path): \(String(describing: failure))")
        #expect(failure?.close?.code == code)
        await connection.close()
        // The server got the code the reader was told of; a connection failed at once got none.
        #expect(server.receivedCloseCodes == (code.map { [$0.rawValue] } ?? []), "\(path)")
        await server.stop()
    }

    @Test("a message that came before a frame that breaks the protocol still reaches the reader")
    func messageBeforeViolation() async throws {
        let server = try await ByteFaultServer.start()
        let client = LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
        let connection = try await client.webSocket(Request<Void>(path: "/ws-masked"))
        var messages = connection.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("ok"))
        let failure = await Self.failure { _ = try await messages.next() }
        #expect(failure?.kind == .protocolViolation)
        await connection.close()
        await server.stop()
    }

    @Test("permessage-deflate: RFC 7692's compressed Hello is read as Hello")
    func inflatesTheRFCExample() async throws {
        let server = try await ByteFaultServer.start()
        let client = LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
        let connection = try await client.webSocket(Request<Void>(path: "/ws-deflate-hello"))
        var messages = connection.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("Hello"))
        await connection.close(code: WebSocketCloseCode(rawValue: 4000))
        #expect(server.receivedCloseCodes == [4000])
        await server.stop()
    }

    @Test("permessage-deflate: a compressible 1 MiB message leaves compressed, and whole without the extension")
    func deflatesWhatItSends() async throws {
        let server = try await ByteFaultServer.start()
        let client = LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
        let text = String(String(repeating: #"{"id":42,"title":"Buy milk","done":false},"#, count: 30_000).prefix(1 << 20))
        var sent: [String: Int] = [:]
        for path in ["/ws-deflate-sink", "/ws-sink"] {
            let connection = try await client.webSocket(Request<Void>(path: path))
            let before = server.receivedByteCount
            try await connection.send(.text(text))
            // Answered once the server has read every frame before the close frame.
            await connection.close()
            sent[path] = server.receivedByteCount - before
        }
        #expect((sent["/ws-deflate-sink"] ?? .max) < 64 * 1024, "\(sent)")
        #expect((sent["/ws-sink"] ?? 0) > 1 << 20, "\(sent)")
        // Compression off: a server that turns it on anyway fails the handshake.
        let failure = await Self.failure {
            _ = try await client.webSocket(Request<Void>(path: "/ws-deflate-sink"), options: WebSocketOptions(compression: .disabled))
        }
        #expect(failure?.kind == .invalidHandshake)
        await server.stop()
    }

    @Test("a refused upgrade whose body never ends fails at the call's timeout")
    func stalledRefusal() async throws {
        let server = try await ByteFaultServer.start()
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(baseURL: server.baseURL, transport: NIOTransport.shared, timeout: .milliseconds(300))
        )
        let error = await networkError { _ = try await client.webSocket(Request<Void>(path: "/stall-mid-body")) }
        await server.stop()
        #expect(error == .timeout(nil))
    }
}

/// How many TCP connections to `port` on 127.0.0.1 are established, or closed by the server
/// and not yet by us (CLOSE_WAIT): a client socket left open. Every test has a server (and port)
/// of its own, so others running at the same time do not count. Linux only (`/proc/net/tcp`).
private func openConnections(toPort port: Int) -> Int {
    guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return 0 }
    let remote = "0100007F:" + String(format: "%04X", port)
    return table.split(separator: "\n").dropFirst().filter { line in
        let columns = line.split(separator: " ")
        return columns.count > 3 && columns[2] == remote && (columns[3] == "01" || columns[3] == "08")
    }.count
}
