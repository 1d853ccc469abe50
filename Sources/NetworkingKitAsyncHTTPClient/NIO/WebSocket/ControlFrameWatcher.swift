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
    /// How the server broke the protocol where only this handler can see it (a masked frame),
    /// before the connection was closed for it.
    let violation = LockedState<String?>(nil)
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
            violation.withLock { $0 = $0 ?? "a masked frame from the server" }
            context.close(promise: nil)
            return
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
