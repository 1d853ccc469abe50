import BenchmarkScenarios
import Foundation
import NIOCore
import NIOPosix
import NetworkingKit
import NetworkingKitAsyncHTTPClient

/// The client over `NIOTransport`, against a server in the same process on one event loop: the
/// caller runs on that loop too (`NIOTransport.LoopExecutor`), so each call is the same sequence of
/// steps on one thread (write, the server's read and answer, the client's read, the caller resumed)
/// and callgrind counts it the same every run. What the row adds to `client` is the transport:
/// its pool, exchange, connection handler, NIO's HTTP encoder and parser, and the socket calls.
enum InProcessNIORow {
    static let name = "client_nio_in_process"

    /// Runs `calls` calls, the sum of the films' ids.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    static func run(calls: Int) async throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(FixedAnswerHandler()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = server.localAddress?.port ?? 0
        let transport = NIOTransport(configuration: NIOTransport.Configuration(eventLoopGroup: group))
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: URL(string: "http://127.0.0.1:\(port)/v1"), transport: transport, decoder: JSONDecoder()))
        let sum = try await withTaskExecutorPreference(transport.taskExecutor()) {
            var sum = 0
            for _ in 0..<calls { sum &+= try await client.send(Rows.filmRequest).id }
            return sum
        }
        await transport.shutdown()
        try await server.close()
        try await group.shutdownGracefully()
        return sum
    }
}

/// Answers each request (a GET: its head ends the request) with `FixedResponseTransport`'s body.
private final class FixedAnswerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let answer: ByteBuffer = {
        var buffer = ByteBuffer(
            string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(FixedResponseTransport.body.count)\r\n\r\n")
        buffer.writeBytes(FixedResponseTransport.body)
        return buffer
    }()

    /// How much of "\r\n\r\n" the bytes read so far end with.
    private var matched = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        var answers = 0
        for byte in buffer.readableBytesView {
            let expected: UInt8 = matched % 2 == 0 ? 13 : 10
            matched = byte == expected ? matched + 1 : (byte == 13 ? 1 : 0)
            if matched == 4 {
                answers += 1
                matched = 0
            }
        }
        for _ in 0..<answers { context.write(wrapOutboundOut(Self.answer), promise: nil) }
        if answers > 0 { context.flush() }
    }
}
