#if AsyncHTTPClientTransport || DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1

/// One open HTTP/1.1 connection of a ``NIOConnectionPool``: its channel, and the handler that
/// drives it, reached on its event loop.
final class HTTP1Connection: Sendable {
    let info: NIOTransport.ConnectionInfo
    let channel: any Channel
    let observer: (@Sendable (NIOTransport.Event) -> Void)?
    private let handler: NIOLoopBound<HTTP1ClientHandler>
    private let pool: NIOConnectionPool

    init(
        info: NIOTransport.ConnectionInfo, channel: any Channel, handler: NIOLoopBound<HTTP1ClientHandler>,
        pool: NIOConnectionPool, observer: (@Sendable (NIOTransport.Event) -> Void)?
    ) {
        self.info = info
        self.channel = channel
        self.handler = handler
        self.pool = pool
        self.observer = observer
    }

    /// Whether the connection is still open (a server may close an idle one at any time).
    var isOpen: Bool { channel.isActive }

    /// Sends the exchange's request.
    func start(_ exchange: HTTP1Exchange, head: HTTPRequestHead, body: HTTP1RequestBody) {
        onLoop { $0.start(exchange, head: head, body: body) }
    }

    /// Closes the connection under an exchange that ended on its side.
    func abort(_ exchange: HTTP1Exchange) {
        onLoop { $0.abort(exchange) }
    }

    /// Gives the connection back to its pool: `false` when the pool no longer has it (closed).
    func release() -> Bool {
        pool.release(self)
    }

    /// Reports the exchange's timing to the observer, if there is one.
    func report(_ exchange: HTTP1Exchange, succeeded: Bool) {
        guard let observer else { return }
        let marks = exchange.timing.withLock { $0 }
        observer(
            .requestFinished(
                NIOTransport.RequestTiming(
                    requestID: exchange.requestID, connection: info, reusedConnection: marks.reused, waitedForConnection: marks.waited,
                    dns: marks.dns, connect: marks.connect, tlsHandshake: marks.tls, requestSent: marks.sent, firstByte: marks.head,
                    total: marks.start.duration(to: ContinuousClock.now),
                    succeeded: succeeded)))
    }

    private func onLoop(_ body: @escaping @Sendable (HTTP1ClientHandler) -> Void) {
        if channel.eventLoop.inEventLoop {
            body(handler.value)
        } else {
            channel.eventLoop.execute { [handler] in body(handler.value) }
        }
    }
}
#endif
