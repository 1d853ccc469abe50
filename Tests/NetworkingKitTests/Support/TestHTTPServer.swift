import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP/1.1 server on 127.0.0.1 (port 0) for the URLSession transport tests, until the
/// DemoAPI server takes over. Routes:
///
/// - `/echo`: answers JSON with the method, path, query, headers and body it received;
/// - `/status/{code}`: answers that status with a JSON `{"message": …}` body;
/// - `/bytes/{n}`: `n` bytes with a Content-Length; `/stream/{n}`: `n` bytes, chunked;
/// - `/delay/{ms}`: answers `ok` after a delay;
/// - `/truncated`: declares 100 bytes, sends 10, and closes the connection;
/// - `/redirect/{code}`: answers that 3xx status with `Location: /echo`;
/// - `/trickle/{n}`: sends `n` bytes one every 100 ms (never idle long, slow in total).
final class TestHTTPServer: Sendable {
    private let channel: any Channel
    /// The port the server listens on.
    let port: Int

    private init(channel: any Channel) throws {
        self.channel = channel
        guard let port = channel.localAddress?.port else { throw TestServerError.noPort }
        self.port = port
    }

    /// The URL of a path on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Starts a server, runs `body`, and stops the server whatever happens.
    static func with<T>(_ body: (TestHTTPServer) async throws -> T) async throws -> T {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(TestHTTPHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let server = try TestHTTPServer(channel: channel)
        do {
            let result = try await body(server)
            try await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }
}

enum TestServerError: Error {
    case noPort
}

/// What `/echo` answers.
struct EchoReply: Codable, Sendable {
    let method: String
    let path: String
    let query: String?
    let headers: [String: String]
    let body: String
}

private final class TestHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let components = URLComponents(string: head.uri)
        let path = components?.percentEncodedPath ?? head.uri
        let parts = path.split(separator: "/").map(String.init)
        let argument = parts.count > 1 ? parts[1] : ""

        switch parts.first {
        case "echo":
            var headers: [String: String] = [:]
            for (name, value) in head.headers {
                headers[name.lowercased()] = headers[name.lowercased()].map { "\($0), \(value)" } ?? value
            }
            let reply = EchoReply(
                method: head.method.rawValue, path: path, query: components?.percentEncodedQuery, headers: headers,
                body: String(buffer: body))
            let data = (try? JSONEncoder().encode(reply)) ?? Data()
            send(status: .ok, contentType: "application/json", body: ByteBuffer(bytes: data), context: context)
        case "status":
            let code = Int(argument) ?? 500
            send(
                status: HTTPResponseStatus(statusCode: code), contentType: "application/json",
                body: ByteBuffer(string: #"{"message":"status \#(code)"}"#), context: context)
        case "bytes":
            let count = Int(argument) ?? 0
            send(status: .ok, contentType: "application/octet-stream", body: ByteBuffer(repeating: UInt8(ascii: "a"), count: count), context: context)
        case "stream":
            streamChunked(count: Int(argument) ?? 0, context: context)
        case "delay":
            let milliseconds = Int64(argument) ?? 0
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(milliseconds)) {
                let (handler, context) = loopBound.value
                handler.send(status: .ok, contentType: "text/plain", body: ByteBuffer(string: "ok"), context: context)
            }
        case "redirect":
            var headers = HTTPHeaders()
            headers.add(name: "Location", value: "/echo")
            headers.add(name: "Content-Length", value: "0")
            let status = HTTPResponseStatus(statusCode: Int(argument) ?? 302)
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case "trickle":
            var headers = HTTPHeaders()
            let count = min(Int(argument) ?? 1, 600)
            headers.add(name: "Content-Length", value: String(count))
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            for index in 0..<count {
                context.eventLoop.scheduleTask(in: .milliseconds(Int64(100 * (index + 1)))) {
                    let (handler, context) = loopBound.value
                    guard context.channel.isActive else { return }
                    context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "t")))), promise: nil)
                    if index == count - 1 {
                        context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
                    }
                }
            }
        case "truncated":
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: "100")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "0123456789")))), promise: nil)
            context.close(promise: nil)
        default:
            send(status: .notFound, contentType: "application/json", body: ByteBuffer(string: #"{"message":"no such route"}"#), context: context)
        }
    }

    private func send(status: HTTPResponseStatus, contentType: String, body: ByteBuffer, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func streamChunked(count: Int, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/octet-stream")
        headers.add(name: "Transfer-Encoding", value: "chunked")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, 16 * 1024)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(repeating: UInt8(ascii: "b"), count: size)))), promise: nil)
            remaining -= size
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
