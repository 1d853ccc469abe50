#if AsyncHTTPClientTransport || DemoAPI
import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// The last handler of a connection's pipeline, on its event loop: makes the connection ready
/// (its TLS handshake done and its pins checked), writes one request at a time, hands the answer
/// to the request's ``HTTP1Exchange``, stops reading while its reader is behind, and gives the
/// connection back to the pool when both the request and the answer are over.
final class HTTP1ClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// How the connection becomes ready.
    struct Readiness {
        /// The host whose pins the server certificate is checked against; `nil` without TLS.
        let tlsHost: String?
        let pins: CertificatePins
        /// When opening must be over (connect, handshake).
        let deadline: NIODeadline
        let idleTimeout: TimeAmount
    }

    private let readiness: Readiness
    private var context: ChannelHandlerContext?
    /// Completed once the connection is ready (its TLS handshake done, its pins checked), or
    /// failed; then `nil`.
    private var ready: EventLoopPromise<Void>?
    private var readyTimer: Scheduled<Void>?
    /// The connection this handler drives, once it is ready (dropped when it closes).
    var connection: HTTP1Connection?

    /// The exchange in progress, and where it stands on this connection.
    private var exchange: HTTP1Exchange?
    private var requestEnded = false
    private var keepAlive = true
    /// The reader is behind: reads wait until it makes room.
    private var readPaused = false
    private var readPending = false
    /// The time of the last release, for the idle timer (one per connection, re-armed when it fires).
    private var idleSince: NIODeadline?
    private var idleTimer: Scheduled<Void>?

    init(readiness: Readiness, ready: EventLoopPromise<Void>) {
        self.readiness = readiness
        self.ready = ready
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        readyTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: readiness.deadline) { [self] in
            failReady(DeadlineExceeded())
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failReady(ChannelError.ioOnClosedChannel)
        self.context = nil
    }

    // MARK: - Opening

    func channelActive(context: ChannelHandlerContext) {
        if readiness.tlsHost == nil { succeedReady() }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event, let host = readiness.tlsHost {
            do {
                let certificate = try context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
                try readiness.pins.check(certificate, host: host)
                succeedReady()
            } catch {
                failReady(error)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func succeedReady() {
        readyTimer?.cancel()
        readyTimer = nil
        ready?.succeed(())
        ready = nil
    }

    /// Opening failed: the connection closes, and its opener gets `error`.
    private func failReady(_ error: any Error) {
        readyTimer?.cancel()
        readyTimer = nil
        guard let ready else { return }
        self.ready = nil
        ready.fail(error)
        context?.close(promise: nil)
    }

    // MARK: - A request

    /// Sends `head` and `body` for `exchange`; a connection that closed meanwhile fails it with
    /// `ioOnClosedChannel` (nothing was sent).
    func start(_ exchange: HTTP1Exchange, head: HTTPRequestHead, body: HTTP1RequestBody) {
        guard let context, context.channel.isActive, self.exchange == nil else {
            exchange.connectionFailed(ChannelError.ioOnClosedChannel)
            return
        }
        // Ended before it could start (cancelled, past its deadline): nothing was written, and
        // the connection is as clean as it was leased.
        if exchange.hasEnded {
            if connection?.release() != true { context.close(promise: nil) }
            idleSince = .now()
            if idleTimer == nil { armIdleTimer(at: .now() + readiness.idleTimeout) }
            return
        }
        self.exchange = exchange
        idleSince = nil
        requestEnded = false
        keepAlive = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        switch body {
        case .none:
            requestEnded = true
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            exchange.requestSent()
        case .bytes(let bytes):
            requestEnded = true
            context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            exchange.requestSent()
        case .stream(let body):
            context.flush()
            exchange.upload(body, on: context.channel)
        }
    }

    /// A streamed body's parts, written from its upload task: its end ends the request. (An
    /// answer that ended first has already closed the connection.)
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        requestEnded = true
        context.write(data, promise: promise)
        // The upload task writes the end with its flush.
        exchange?.requestSent()
    }

    /// The exchange ended on its side (its timer, a cancelled caller, a reader that let go): the
    /// connection closes, the rest of the answer unread.
    func abort(_ exchange: HTTP1Exchange) {
        guard self.exchange === exchange else { return }
        self.exchange = nil
        context?.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if head.status.code >= 100, head.status.code < 200, head.status.code != 101 {
                if let exchange, let observer = connection?.observer {
                    observer(.informationalResponse(HTTPResponse.Status(code: Int(head.status.code)), requestID: exchange.requestID))
                }
                return
            }
            keepAlive = head.isKeepAlive && head.status.code != 101
            exchange?.receivedHead(head)
        case .body(let buffer):
            guard let exchange else { return }
            if exchange.pipe.append(Data(buffer.readableBytesView)) == .full {
                readPaused = true
                exchange.pipe.waitForRoom(ReadRoom(handler: NIOLoopBound(self, eventLoop: context.eventLoop)))
            }
        case .end:
            guard let exchange else { return }
            // The connection is back in the pool before the reader learns the answer is over: a
            // caller that sends its next request at once finds it there.
            if requestEnded {
                exchangeOver(context: context)
            } else {
                // An answer before the whole request (a 413, a redirect) leaves a body half sent:
                // the connection cannot carry another request.
                self.exchange = nil
                context.close(promise: nil)
            }
            exchange.receivedEnd()
        }
    }

    /// Both the request and its answer are over: the connection goes back to its pool, or closes.
    private func exchangeOver(context: ChannelHandlerContext) {
        guard exchange != nil else { return }
        exchange = nil
        guard keepAlive, let connection, connection.release() else {
            context.close(promise: nil)
            return
        }
        idleSince = .now()
        if idleTimer == nil { armIdleTimer(at: .now() + readiness.idleTimeout) }
    }

    private func armIdleTimer(at deadline: NIODeadline) {
        guard let context else { return }
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            idleTimer = nil
            guard let idleSince else { return }  // in use: armed again when released
            let expiry = idleSince + readiness.idleTimeout
            if expiry <= .now() {
                self.context?.close(promise: nil)
            } else {
                armIdleTimer(at: expiry)
            }
        }
    }

    // MARK: - Reading at the reader's pace

    func read(context: ChannelHandlerContext) {
        if readPaused {
            readPending = true
        } else {
            context.read()
        }
    }

    /// The reader made room.
    fileprivate func resumeReading() {
        readPaused = false
        guard readPending, let context else { return }
        readPending = false
        context.read()
    }

    // MARK: - Failures

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failReady(error)
        if let exchange {
            self.exchange = nil
            exchange.connectionFailed(error)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failReady(ChannelError.eof)
        idleTimer?.cancel()
        idleTimer = nil
        if let exchange {
            self.exchange = nil
            exchange.connectionFailed(ChannelError.eof)
        }
        connection = nil
        context.fireChannelInactive()
    }
}

/// Room made by a reader that had fallen behind: the connection reads again.
private struct ReadRoom: BodyRoom {
    let handler: NIOLoopBound<HTTP1ClientHandler>

    func open() {
        if handler.eventLoop.inEventLoop {
            handler.value.resumeReading()
        } else {
            handler.eventLoop.execute { handler.value.resumeReading() }
        }
    }
}
#endif
