#if DemoAPI
import Crypto
public import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A listener on 127.0.0.1 that answers with scripted bytes that no well-behaved HTTP server
/// (Hummingbird included) would send: repeated or unparsable `Content-Length`, a status line
/// that is not HTTP, a connection reset in the middle of a body; or, with TLS, a certificate no
/// client trusts. It reads one request head per connection, answers by its path, and ends the
/// connection.
///
/// | path | answer |
/// |---|---|
/// | `/duplicate-content-length` | `Content-Length: 5` and `Content-Length: 6`, 6 bytes |
/// | `/invalid-content-length` | `Content-Length: five` |
/// | `/not-http` | `HELLO WORLD` instead of a status line |
/// | `/reset-mid-body` | 10 of 100 declared bytes, then a TCP reset |
/// | `/reset-mid-chunked` | one chunk of a chunked body, then a TCP reset |
/// | `/stall-mid-body` | 10 of 100 declared bytes, then nothing more until the client closes |
/// | `/field-name-spellings` | 200 with `ok`, its field names in lower, upper and mixed case |
/// | `/request-head` | 200 with the request head as received, byte for byte |
/// | `/ws-bad-accept` | a WebSocket `101` whose `Sec-WebSocket-Accept` is wrong |
/// | `/ws-no-connection` | a `101` without `Connection: Upgrade` |
/// | `/ws-extension-greeting` | a `101` with an extension nobody offers (`x-webkit-deflate-frame`), and a frame in the same write |
/// | `/ws-deflate-window` | a `101` with `permessage-deflate; client_max_window_bits=10`, a parameter the client did not offer |
/// | `/ws-deflate-hello` | a `101` with `permessage-deflate`, then RFC 7692's compressed `Hello` (§7.2.3.1) |
/// | `/ws-deflate-bomb` | a `101` with `permessage-deflate`, then an 8 KiB frame that inflates to 8 MiB |
/// | `/ws-deflate-corrupt` | a `101` with `permessage-deflate`, then a compressed frame that does not inflate |
/// | `/ws-rsv1` | a `101` with no extension, then a frame with RSV1 set (compressed, unasked) |
/// | `/ws-rsv1-continuation` | a `101` with `permessage-deflate`, then a message whose continuation frame has RSV1 set |
/// | `/ws-sink` | a `101`, then nothing: frames are read and counted |
/// | `/ws-deflate-sink` | a `101` with `permessage-deflate`, then nothing: frames are read and counted |
///
/// After any `/ws-` script's `101`, the client's frames are read: a close frame is answered with
/// 1000 and the connection closed, its code kept in ``receivedCloseCodes``.
/// | `/ws-subprotocol` | a `101` choosing the subprotocol `evil`, which nobody offers |
/// | `/ws-masked` | a `101`, then the text frame `ok`, then a masked text frame (servers must not mask) |
/// | `/ws-invalid-utf8` | a `101`, then a text frame that is not UTF-8 |
/// | `/ws-huge-frame` | a `101`, then a frame header that claims 2⁴⁰ bytes |
/// | anything else | 200 with `ok` |
public final class ByteFaultServer: Sendable {
    /// The port really bound.
    public let port: Int
    /// `http://127.0.0.1:PORT` (or `https://` for a TLS listener), without a trailing slash.
    public let baseURL: URL
    private let channel: any Channel
    private let received: Locked<Int>
    private let closeCodes: Locked<[UInt16]>

    private init(port: Int, baseURL: URL, channel: any Channel, received: Locked<Int>, closeCodes: Locked<[UInt16]>) {
        self.port = port
        self.baseURL = baseURL
        self.channel = channel
        self.received = received
        self.closeCodes = closeCodes
    }

    /// The codes of the WebSocket close frames clients sent, in order (1005 for a frame with none).
    public var receivedCloseCodes: [UInt16] { closeCodes.withLock { $0 } }

    /// The bytes of requests received so far, over every connection (after TLS): zero proves
    /// that a client refused the server before sending anything.
    public var receivedByteCount: Int { received.withLock { $0 } }

    /// The TLS listener's self-signed certificate (for 127.0.0.1 and localhost), as PEM: for a
    /// test that trusts it on purpose, as a client of a private certificate authority would.
    public static var certificatePEM: String { UntrustedCertificate.certificatePEM }

    /// The certificate the listener presents with `certificateForAnotherHost`: self-signed, for
    /// `another-host.invalid` only.
    public static var anotherHostCertificatePEM: String { UntrustedCertificate.anotherHostCertificatePEM }

    /// Starts a listener on a free port of 127.0.0.1.
    /// - Parameters:
    ///   - tls: Whether connections are TLS with `UntrustedCertificate` (a self-signed certificate nobody vouches for).
    ///   - legacyTLSOnly: Whether the TLS listener speaks only TLS 1.0 and 1.1, as a server nobody has updated.
    ///   - certificateForAnotherHost: Whether the TLS listener presents ``anotherHostCertificatePEM``.
    public static func start(
        tls: Bool = false, legacyTLSOnly: Bool = false, certificateForAnotherHost: Bool = false
    ) async throws -> ByteFaultServer {
        let context = tls ? try tlsContext(legacyOnly: legacyTLSOnly, anotherHost: certificateForAnotherHost) : nil
        let received = Locked(0)
        let closeCodes = Locked<[UInt16]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.addHandler(ScriptedAnswer(received: received, closeCodes: closeCodes))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port, let url = URL(string: "\(tls ? "https" : "http")://127.0.0.1:\(port)") else {
            try? await channel.close()
            throw DemoServer.StartError.noBoundPort
        }
        return ByteFaultServer(port: port, baseURL: url, channel: channel, received: received, closeCodes: closeCodes)
    }

    /// The TLS listener's context: `UntrustedCertificate`'s certificate for 127.0.0.1 (or the one
    /// for another host), and TLS 1.0 and 1.1 only when `legacyOnly`.
    private static func tlsContext(legacyOnly: Bool, anotherHost: Bool) throws -> NIOSSLContext {
        let certificate = anotherHost ? UntrustedCertificate.anotherHostCertificatePEM : UntrustedCertificate.certificatePEM
        let key = anotherHost ? UntrustedCertificate.anotherHostPrivateKeyPEM : UntrustedCertificate.privateKeyPEM
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem)))
        if legacyOnly {
            configuration.minimumTLSVersion = .tlsv1
            configuration.maximumTLSVersion = .tlsv11
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Stops listening; connections still open end on their own once answered.
    public func stop() async {
        try? await channel.close()
    }

    /// Runs `body` with a fresh listener and stops it afterwards, whether `body` returns or throws.
    public static func withServer<T>(
        tls: Bool = false,
        legacyTLSOnly: Bool = false,
        certificateForAnotherHost: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ByteFaultServer) async throws -> T
    ) async throws -> T {
        try await withStopping(
            try await start(tls: tls, legacyTLSOnly: legacyTLSOnly, certificateForAnotherHost: certificateForAnotherHost),
            stop: { await $0.stop() }, body)
    }
}

/// Reads a request head (at most 64 KiB) and writes the scripted answer for its path.
private final class ScriptedAnswer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var head = ByteBuffer()
    private var answered = false
    /// After a WebSocket script's `101`: the client's frames not yet whole.
    private var frames: ByteBuffer?
    private let received: Locked<Int>
    private let closeCodes: Locked<[UInt16]>

    init(received: Locked<Int>, closeCodes: Locked<[UInt16]>) {
        self.received = received
        self.closeCodes = closeCodes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.withLock { $0 += bytes.readableBytes }
        if frames != nil {
            frames!.writeBuffer(&bytes)
            return readFrames(context: context)
        }
        guard !answered else { return }
        head.writeBuffer(&bytes)
        let text = String(decoding: head.readableBytesView, as: UTF8.self)
        guard text.contains("\r\n\r\n") else {
            if head.readableBytes > 64 * 1024 { context.close(promise: nil) }
            return
        }
        answered = true
        let path = text.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let (answer, ending): (ByteBuffer, Ending)
        if let webSocket = Self.webSocketScript(for: path, head: text) {
            (answer, ending) = webSocket
        } else {
            let (script, scriptEnding) = path == "/request-head" ? Self.echo(head: text) : Self.script(for: path)
            (answer, ending) = (ByteBuffer(string: script), scriptEnding)
        }
        let channel = context.channel
        if ending == .webSocket { frames = ByteBuffer() }
        context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in
            switch ending {
            case .stall, .webSocket:
                break
            case .close:
                channel.close(promise: nil)
            case .reset:
                // SO_LINGER 0: close() sends RST instead of FIN.
                let linger =
                    (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                    ?? channel.eventLoop.makeSucceededVoidFuture()
                linger.whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A client that refuses the certificate, or resets: nothing to answer.
        context.close(promise: nil)
    }

    private enum Ending {
        case close
        case reset
        /// The connection stays open, silent, until the client closes it.
        case stall
        /// The connection stays open, the client's WebSocket frames read until its close frame,
        /// which is answered.
        case webSocket
    }

    /// Takes the client's whole frames (RFC 6455 §5.2: masked, as a client sends them); a close
    /// frame's code is kept, answered with 1000, and the connection closed.
    private func readFrames(context: ChannelHandlerContext) {
        while var buffer = frames, let first = buffer.readInteger(as: UInt8.self), let second = buffer.readInteger(as: UInt8.self) {
            let length: Int?
            switch second & 0x7F {
            case 126: length = buffer.readInteger(as: UInt16.self).map(Int.init)
            case 127: length = buffer.readInteger(as: UInt64.self).map { Int(clamping: $0) }
            case let short: length = Int(short)
            }
            let mask = second & 0x80 != 0 ? buffer.readBytes(length: 4) : []
            guard let length, let mask, var payload = buffer.readBytes(length: length) else { return }
            frames = buffer
            guard first & 0x0F == 0x8 else { continue }
            for index in payload.indices where !mask.isEmpty { payload[index] ^= mask[index % 4] }
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
            closeCodes.withLock { $0.append(code) }
            frames = nil
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [0x88, 0x02, 0x03, 0xE8]))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
    }

    /// The request head as the server read it, byte for byte, as a text answer: how a client really
    /// wrote its fields (one `Cookie` line or several).
    private static func echo(head text: String) -> (String, Ending) {
        let head = String(text[..<(text.range(of: "\r\n\r\n")?.lowerBound ?? text.endIndex)])
        return (
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(head.utf8.count)\r\nConnection: close\r\n\r\n\(head)", .close
        )
    }

    /// A WebSocket handshake gone wrong, or a hostile frame after a good one; the connection then
    /// stays open until the client closes it (a close frame is answered).
    private static func webSocketScript(for path: String, head: String) -> (ByteBuffer, Ending)? {
        guard path.hasPrefix("/ws-") else { return nil }
        let key =
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        var lines = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: \(accept)"]
        var frames: [UInt8] = []
        switch path {
        case "/ws-bad-accept": lines[3] = "Sec-WebSocket-Accept: dGhlIHNhbXBsZSBub25jZQ=="
        case "/ws-no-connection": lines.remove(at: 2)
        case "/ws-extension-greeting":
            lines.append("Sec-WebSocket-Extensions: x-webkit-deflate-frame")
            frames = [0x81, 0x02] + Array("hi".utf8)
        case "/ws-deflate-window": lines.append("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=10")
        case "/ws-deflate-hello":
            lines.append("Sec-WebSocket-Extensions: permessage-deflate")
            frames = rfc7692Hello
        case "/ws-deflate-bomb":
            lines.append("Sec-WebSocket-Extensions: permessage-deflate")
            let compressed = Deflater(.raw)?.message([UInt8](repeating: 0, count: 8 << 20)) ?? []
            // The shortest length that holds it, as RFC 6455 §5.2 asks.
            let length = compressed.count
            let header: [UInt8] =
                length < 126
                ? [UInt8(length)]
                : length < 1 << 16
                    ? [126] + [8, 0].map { UInt8(truncatingIfNeeded: length >> $0) }
                    : [127] + stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: length >> $0) }
            frames = [0xC2] + header + compressed
        case "/ws-deflate-corrupt":
            lines.append("Sec-WebSocket-Extensions: permessage-deflate")
            // A block of the reserved type 3: no inflater takes it.
            frames = [0xC1, 0x04, 0xFF, 0xFF, 0xFF, 0xFF]
        case "/ws-rsv1": frames = rfc7692Hello
        case "/ws-rsv1-continuation":
            lines.append("Sec-WebSocket-Extensions: permessage-deflate")
            // `he` uncompressed, then a final continuation with RSV1 and deflated bytes.
            frames = [0x01, 0x02] + Array("he".utf8) + [0xC0, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
        case "/ws-sink": break
        case "/ws-deflate-sink": lines.append("Sec-WebSocket-Extensions: permessage-deflate")
        case "/ws-subprotocol": lines.append("Sec-WebSocket-Protocol: evil")
        case "/ws-masked":
            let mask: [UInt8] = [1, 2, 3, 4]
            frames = [0x81, 0x02] + Array("ok".utf8) + [0x81, 0x80 | 0x02] + mask + zip(Array("hi".utf8), [1, 2]).map { $0 ^ $1 }
        case "/ws-invalid-utf8": frames = [0x81, 0x02, 0xFF, 0xFE]
        case "/ws-huge-frame": frames = [0x82, 127, 0, 0, 1, 0, 0, 0, 0, 0]
        default: return nil
        }
        var answer = ByteBuffer(string: lines.joined(separator: "\r\n") + "\r\n\r\n")
        answer.writeBytes(frames)
        return (answer, .webSocket)
    }

    /// RFC 7692 §7.2.3.1: `Hello` as one compressed text frame, RSV1 set.
    private static let rfc7692Hello: [UInt8] = [0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]

    private static func script(for path: String) -> (String, Ending) {
        switch path {
        case "/duplicate-content-length":
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", .close)
        case "/invalid-content-length":
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: five\r\n\r\nhello", .close)
        case "/not-http":
            ("HELLO WORLD\r\n\r\n", .close)
        case "/reset-mid-body":
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789", .reset)
        case "/stall-mid-body":
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789", .stall)
        case "/reset-mid-chunked":
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n", .reset)
        case "/field-name-spellings":
            (
                "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nCONTENT-LENGTH: 2\r\nCache-Control: no-store\r\n"
                    + "x-request-id: abc\r\nX-Odd-name: 1\r\nConnection: close\r\n\r\nok", .close
            )
        default:
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", .close)
        }
    }
}
#endif
