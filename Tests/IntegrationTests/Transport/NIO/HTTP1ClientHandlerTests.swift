import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
@_spi(Transport) import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// The NIO transport's connection handler on an `EmbeddedChannel`: the bytes it writes, what it
/// does with each answer, and when the connection goes back to its pool, with no socket and no task.
@Suite("NIO transport: the connection handler on an EmbeddedChannel")
struct HTTP1ClientHandlerTests {
    /// A connected channel with the transport's pipeline, counted in a pool of its own.
    struct Harness {
        let channel = EmbeddedChannel()
        let pool = NIOConnectionPool(configuration: NIOTransport.Configuration())
        let connection: HTTP1Connection
        let events = LockedState<[NIOTransport.Event]>([])

        init() throws {
            let ready = channel.eventLoop.makePromise(of: Void.self)
            let handler = HTTP1ClientHandler(
                readiness: .init(tlsHost: nil, pins: .none, deadline: .distantFuture, idleTimeout: .seconds(60)), ready: ready)
            try channel.pipeline.syncOperations.addHandler(HTTPRequestEncoder())
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)))
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
            try ready.futureResult.wait()
            let origin = NIOTransport.Origin(isSecure: false, host: "example.com", port: 80)
            let events = events
            connection = HTTP1Connection(
                info: NIOTransport.ConnectionInfo(id: 1, origin: origin, remoteAddress: nil), channel: channel,
                handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), pool: pool,
                observer: { event in events.withLock { $0.append(event) } })
            handler.connection = connection
            #expect(pool.adopt(connection))
        }

        /// Starts a request; the exchange that carries it.
        func start(_ method: NIOHTTP1.HTTPMethod = .GET, body: HTTP1RequestBody = .none, headers: HTTPHeaders = ["Host": "example.com"])
            -> HTTP1Exchange
        {
            let exchange = HTTP1Exchange(
                connection: connection, request: RequestSummary(method: .get, url: nil), requestID: "r",
                deadlineEndsWithHead: false, timing: .init(start: .now))
            connection.start(exchange, head: HTTPRequestHead(version: .http1_1, method: method, uri: "/a", headers: headers), body: body)
            return exchange
        }

        /// Everything written so far, as text.
        func written() throws -> String {
            var text = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
            return text
        }

        /// Whether the pool would hand the connection to the next call.
        var isIdleInPool: Bool {
            guard case .use(let idle)? = pool.leaseForTest(connection.info.origin) else { return false }
            return idle === connection
        }
    }

    @Test("a request is written as given; its answer reaches the body's reader, and the connection goes back to the pool")
    func keepAlive() throws {
        let harness = try Harness()
        let exchange = harness.start(
            .POST, body: .bytes(ByteBuffer(string: "{}")), headers: ["Host": "example.com", "Content-Length": "2"])
        #expect(try harness.written() == "POST /a HTTP/1.1\r\nHost: example.com\r\nContent-Length: 2\r\n\r\n{}")
        try harness.channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel"))
        #expect(!exchange.hasEnded)
        #expect(exchange.pipe.bytesInMemory == 3)
        try harness.channel.writeInbound(ByteBuffer(string: "lo"))
        #expect(exchange.hasEnded)
        #expect(exchange.pipe.bytesInMemory == 5)
        #expect(harness.channel.isActive)
        #expect(harness.isIdleInPool)
        // The next request goes on the same connection.
        let next = harness.start()
        #expect(try harness.written() == "GET /a HTTP/1.1\r\nHost: example.com\r\n\r\n")
        try harness.channel.writeInbound(ByteBuffer(string: "HTTP/1.1 204 No Content\r\n\r\n"))
        #expect(next.hasEnded)
        #expect(harness.isIdleInPool)
    }

    @Test("an answer with Connection: close, or in HTTP/1.0, closes the connection instead")
    func closes() throws {
        for answer in ["HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"]
        {
            let harness = try Harness()
            let exchange = harness.start()
            try harness.channel.writeInbound(ByteBuffer(string: answer))
            #expect(exchange.hasEnded)
            #expect(!harness.channel.isActive)
            #expect(!harness.isIdleInPool)
        }
    }

    @Test("an informational answer is reported and skipped; the final one is the answer")
    func informational() throws {
        let harness = try Harness()
        let exchange = harness.start()
        try harness.channel.writeInbound(ByteBuffer(string: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"))
        #expect(!exchange.hasEnded)
        try harness.channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        #expect(exchange.hasEnded)
        let informational = harness.events.withLock { events in
            events.compactMap { if case .informationalResponse(let status, _) = $0 { status.code } else { nil } }
        }
        #expect(informational == [103])
    }

    @Test("a connection that closes mid-body ends the exchange, keeping what arrived; it never goes back to the pool")
    func cutMidBody() throws {
        let harness = try Harness()
        let exchange = harness.start()
        try harness.channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"))
        _ = try? harness.channel.finish()
        #expect(exchange.hasEnded)
        #expect(exchange.pipe.bytesInMemory == 3)
        #expect(!harness.isIdleInPool)
    }

    @Test("an exchange that ended before it started writes nothing and gives the connection back")
    func endedBeforeStart() throws {
        let harness = try Harness()
        let exchange = HTTP1Exchange(
            connection: harness.connection, request: RequestSummary(method: .get, url: nil), requestID: "r",
            deadlineEndsWithHead: false, timing: .init(start: .now))
        exchange.connectionFailed(CancellationError())
        harness.connection.start(exchange, head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/a"), body: .none)
        #expect(try harness.written() == "")
        #expect(harness.channel.isActive)
        #expect(harness.isIdleInPool)
    }
}
