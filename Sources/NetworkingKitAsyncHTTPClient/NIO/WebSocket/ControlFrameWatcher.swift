#if AsyncHTTPClientTransport || DemoAPI
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOWebSocket

/// Sees the control frames on their way to swift-websocket's handler, which answers pings and
/// the close handshake but keeps what it saw to itself: so that a ping sent by the app can wait
/// for its own pong, and the server's close frame is known even when the server hangs up before
/// the handshake is over.
final class ControlFrameWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// The server's close frame, once it came.
    let closeReceived = LockedState<WebSocketClose?>(nil)
    /// How the server broke the protocol where only this handler sees it: a masked frame or
    /// reserved bits nobody negotiated. The connection is closed at once; the messages that came
    /// before still reach the reader.
    let violation = LockedState<NetworkError?>(nil)
    /// A compressed message that did not inflate, or inflated past the limit, kept by
    /// ``PerMessageDeflateNegotiation``: the reader fails with it at once, closing with its code.
    let inflateFailure: LockedState<NetworkError?>
    /// The reserved bits the negotiated extensions use: any other one fails the connection.
    private let reservedBits: WebSocketFrame.ReservedBits

    init(reservedBits: WebSocketFrame.ReservedBits, inflateFailure: LockedState<NetworkError?>) {
        self.reservedBits = reservedBits
        self.inflateFailure = inflateFailure
    }

    /// The pings waiting for their pong, by payload.
    private var waiting: [(payload: ByteBuffer, promise: EventLoopPromise<Void>)] = []

    /// A future that succeeds when a pong with `payload` arrives, or fails when the connection
    /// closes first. On the channel's event loop.
    func pong(for payload: ByteBuffer, on loop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        waiting.append((payload, promise))
        return promise.futureResult
    }

    /// Stops waiting for the pong of `payload` (its ping was cancelled).
    func forget(_ payload: ByteBuffer) {
        if let index = waiting.firstIndex(where: { $0.payload == payload }) {
            waiting.remove(at: index).promise.fail(CancellationError())
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // A server must not mask its frames (RFC 6455 §5.1): the connection is failed.
        guard frame.maskKey == nil else {
            return fail("a masked frame from the server", context: context)
        }
        // Reserved bits mean what an extension says, on a message's first frame; continuation
        // and control frames carry none (RFC 7692 §6).
        let allowed = frame.opcode == .text || frame.opcode == .binary ? reservedBits : []
        guard allowed.contains(frame.reservedBits) else {
            return fail("a frame with reserved bits no extension uses", context: context)
        }
        switch frame.opcode {
        case .pong:
            if let index = waiting.firstIndex(where: { $0.payload == frame.unmaskedData }) {
                waiting.remove(at: index).promise.succeed(())
            }
        case .connectionClose:
            var payload = frame.unmaskedData
            // No code: 1005, as RFC 6455 §7.1.5 says to report it.
            let code = payload.readInteger(as: UInt16.self) ?? WebSocketCloseCode.noStatusReceived.rawValue
            let reason = payload.readString(length: payload.readableBytes) ?? ""
            closeReceived.withLock { $0 = $0 ?? WebSocketClose(code: WebSocketCloseCode(rawValue: code), reason: reason) }
        default:
            break
        }
        context.fireChannelRead(data)
    }

    /// The connection is failed at once (RFC 6455 §7.1.7), the reader told why.
    private func fail(_ detail: String, context: ChannelHandlerContext) {
        let violation = NetworkError.webSocket(WebSocketFailure(kind: .protocolViolation, detail: detail))
        self.violation.withLock { $0 = $0 ?? violation }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(ChannelError.eof)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failAll(ChannelError.ioOnClosedChannel)
    }

    private func failAll(_ error: any Error) {
        let waiting = waiting
        self.waiting = []
        for entry in waiting { entry.promise.fail(error) }
    }
}

extension ControlFrameWatcher: @unchecked Sendable {}  // Its pings are touched on its event loop only.
#endif
