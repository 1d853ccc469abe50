#if DemoAPI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// `/ws/…`: WebSocket routes, for the clients' conformance tests and the tour.
///
/// | route | what it does |
/// |---|---|
/// | `/ws/echo` | sends each message back as it came (text as text, binary as binary) |
/// | `/ws/auth` | echo, for a valid bearer token only; a `401` with a challenge otherwise |
/// | `/ws/redirect` | a `302` to `/ws/echo` (no upgrade) |
/// | `/ws/close?code=4001&reason=bye` | closes at once with that code and reason |
/// | `/ws/big?size=N&frame=F` | sends one binary message of `N` bytes (in frames of `F` bytes), then echoes |
/// | `/ws/fragments` | sends one text message split over three frames, then echoes |
/// | `/ws/drop` | drops the TCP connection, with no close frame, after the first message |
/// | `/ws/protocol` | chooses the first subprotocol offered, and echoes |
/// | `/ws/room` | a chat room: each text message goes to every member, the sender included |
/// | `/ws/stats` | (HTTP) upgrades per route, and the connections open now |
struct WebSocketRoutes: Sendable {
    let state: DemoState

    /// The largest frame the server takes: a message sent in one frame (URLSession sends them so)
    /// may be this large.
    static let maxFrameSize = 4 << 20

    /// The paths that upgrade to WebSocket.
    static let paths = [
        "/ws/echo", "/ws/auth", "/ws/redirect", "/ws/close", "/ws/big", "/ws/fragments", "/ws/drop", "/ws/protocol", "/ws/room",
    ]

    /// The counters, over HTTP; and a `426 Upgrade Required` for a plain `GET` of a WebSocket path
    /// (so that the route index lists them, and a browser's visit says what to do).
    func register(on router: Router<DemoRequestContext>) {
        for path in Self.paths {
            router.get(RouterPath(path)) { _, _ -> Response in
                var headers = HTTPFields()
                headers[.upgrade] = "websocket"
                headers[.contentType] = "text/plain; charset=utf-8"
                return Response(
                    status: .upgradeRequired, headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "Connect with a WebSocket upgrade (netkit ws).\n")))
            }
        }
        router.get("/ws/stats") { _, _ in
            try JSONBody.response(state.webSockets.withLock { $0 })
        }
    }

    /// Whether to upgrade `request`, and how to serve the connection.
    func shouldUpgrade(
        _ request: HTTPRequest, channel: any Channel
    ) async -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let target = request.path ?? "/"
        let path = String(target.prefix { $0 != "?" })
        let query = URLComponents(string: target)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        var headers = HTTPFields()
        let handler: WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
        switch path {
        case "/ws/echo":
            handler = { inbound, outbound, _ in try await Self.echo(inbound, outbound) }
        case "/ws/auth":
            guard let authorization = request.headerFields[.authorization], authorization.lowercased().hasPrefix("bearer "),
                case .success = state.auth.withLock({ $0.user(forAccessToken: String(authorization.dropFirst(7))) })
            else {
                await Self.refuse(
                    channel, status: .unauthorized,
                    headers: [("WWW-Authenticate", "Bearer realm=\"\(AuthRoutes.realm)\", error=\"invalid_token\"")],
                    body: #"{"error":"invalid_token","message":"A valid bearer token is required."}"#)
                return .dontUpgrade
            }
            handler = { inbound, outbound, _ in try await Self.echo(inbound, outbound) }
        case "/ws/redirect":
            await Self.refuse(channel, status: .found, headers: [("Location", "/ws/echo")], body: "")
            return .dontUpgrade
        case "/ws/close":
            // A code a close frame may carry, and a reason that fits in one (RFC 6455 §5.5).
            let code = value("code").flatMap(Int.init).flatMap { (1000...4999).contains($0) ? $0 : nil } ?? 1000
            let reason = value("reason").map { String(decoding: $0.utf8.prefix(123), as: UTF8.self) }
            handler = { _, outbound, _ in
                try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason)
            }
        case "/ws/big":
            let size = min(value("size").flatMap(Int.init) ?? 1 << 20, 64 << 20)
            let frame = max(1, min(value("frame").flatMap(Int.init) ?? size, Self.maxFrameSize))
            handler = { inbound, outbound, _ in
                try await outbound.withBinaryMessageWriter { write in
                    var sent = 0
                    while sent < size {
                        let count = min(frame, size - sent)
                        try await write(ByteBuffer(repeating: UInt8(ascii: "b"), count: count))
                        sent += count
                    }
                }
                try await Self.echo(inbound, outbound)
            }
        case "/ws/fragments":
            handler = { inbound, outbound, _ in
                try await outbound.withTextMessageWriter { write in
                    try await write("one ")
                    try await write("two ")
                    try await write("three")
                }
                try await Self.echo(inbound, outbound)
            }
        case "/ws/drop":
            handler = { inbound, _, _ in
                for try await _ in inbound.messages(maxSize: Self.maxFrameSize) {
                    try await channel.close()
                    return
                }
            }
        case "/ws/protocol":
            let offered = request.headerFields[.secWebSocketProtocol]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if let first = offered?.first { headers[.secWebSocketProtocol] = first }
            handler = { inbound, outbound, _ in try await Self.echo(inbound, outbound) }
        case "/ws/room":
            let room = state.room
            handler = { inbound, outbound, _ in try await room.join(inbound, outbound) }
        default:
            return .dontUpgrade
        }
        state.webSockets.withLock { $0.upgrades[path, default: 0] += 1 }
        let counted: WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context> = { [state] inbound, outbound, context in
            state.webSockets.withLock { $0.open += 1 }
            defer { state.webSockets.withLock { $0.open -= 1 } }
            try await handler(inbound, outbound, context)
        }
        return .upgrade(headers, counted)
    }

    /// Answers an upgrade with an HTTP refusal of its own and closes the connection: Hummingbird
    /// answers every upgrade it declines with a bare `400`, where real servers send a `401` to
    /// authenticate or a `3xx` to go elsewhere. Written on the channel, below Hummingbird.
    static func refuse(_ channel: any Channel, status: HTTPResponseStatus, headers: [(String, String)], body: String) async {
        var head = HTTPResponseHead(version: .http1_1, status: status)
        head.headers.add(contentsOf: headers)
        if !body.isEmpty { head.headers.add(name: "Content-Type", value: "application/json") }
        head.headers.add(name: "Content-Length", value: String(body.utf8.count))
        head.headers.add(name: "Connection", value: "close")
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body))), promise: nil)
        try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        try? await channel.close()
    }

    /// Sends every message back as it came.
    static func echo(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        for try await message in inbound.messages(maxSize: 64 << 20) {
            switch message {
            case .text(let text): try await outbound.writeTextMessage(text)
            case .binary(let buffer): try await outbound.writeBinaryMessage(buffer)
            }
        }
    }

    /// What `/ws/stats` answers.
    struct Counters: Codable, Sendable {
        /// Upgrades accepted, per route.
        var upgrades: [String: Int] = [:]
        /// Connections open now.
        var open = 0
    }
}

/// `/ws/room`'s members: each text message goes to all of them.
final class WebSocketRoom: Sendable {
    private let members = Locked<[UUID: WebSocketOutboundWriter]>([:])

    func join(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        let id = UUID()
        members.withLock { $0[id] = outbound }
        defer { members.withLock { $0[id] = nil } }
        for try await message in inbound.messages(maxSize: 1 << 20) {
            guard case .text(let text) = message else { continue }
            for member in members.withLock({ Array($0.values) }) {
                try? await member.writeTextMessage(text)
            }
        }
    }
}
#endif
