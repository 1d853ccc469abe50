#if AsyncHTTPClientTransport || DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOWebSocket
import WSCore

/// The HTTP/1.1 upgrade of one ready connection to WebSocket (RFC 6455 §4), with SwiftNIO's
/// upgrade handler and WebSocket upgrader (key, `Sec-WebSocket-Accept`, the frame codec).
enum WebSocketUpgrade {
    /// What the server answered.
    enum Outcome: Sendable {
        /// `101`: the connection speaks WebSocket frames, with the subprotocol and extensions the
        /// server chose.
        case upgraded(
            NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponseHead, subprotocol: String?,
            extensions: [any WebSocketExtension], watcher: ControlFrameWatcher)
        /// Any other status, with what came of its body (at most ``bodyLimit`` bytes); the
        /// connection is closed.
        case refused(HTTPResponseHead, ByteBuffer?)
        /// Not upgraded: SwiftNIO's upgrade handler passes the answer on once it has this.
        case declined
    }

    /// How much of a refusal's body is kept (an error's message), the rest dropped.
    static let bodyLimit = 64 * 1024

    /// Sends the upgrade on `channel`, made by ``NIOConnectionPool/openChannel(to:on:deadline:marks:)``,
    /// and returns the server's answer, by `deadline`.
    static func run(
        on channel: any Channel, head: HTTPRequestHead, options: WebSocketOptions, deadline: ContinuousClock.Instant
    ) async throws -> Outcome {
        let future = channel.eventLoop.flatSubmit {
            // The connection was opened for HTTP exchanges; this one is an upgrade, answered
            // once. The response decoder leaves at the end of the event loop's tick.
            let pipeline = channel.pipeline.syncOperations
            do {
                _ = pipeline.removeHandler(try pipeline.handler(type: HTTP1ClientHandler.self))
                _ = pipeline.removeHandler(try pipeline.handler(type: HTTPRequestEncoder.self))
                return pipeline.removeHandler(try pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.flatMap {
            do {
                return try start(on: channel, head: head, options: options, deadline: deadline)
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        do {
            return try await withTaskCancellationHandler {
                try await future.get()
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            channel.close(promise: nil)
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
    }

    /// On the channel's event loop, the pool's HTTP handlers gone: the upgrade's in.
    private static func start(
        on channel: any Channel, head: HTTPRequestHead, options: WebSocketOptions, deadline: ContinuousClock.Instant
    ) throws -> EventLoopFuture<Outcome> {
        let pipeline = channel.pipeline.syncOperations
        var head = head
        if !options.subprotocols.isEmpty {
            head.headers.replaceOrAdd(name: "Sec-WebSocket-Protocol", value: options.subprotocols.joined(separator: ", "))
        }
        // Only what the client can inflate is offered: an app's own header would name more.
        head.headers.remove(name: "Sec-WebSocket-Extensions")
        if let offer = PerMessageDeflateNegotiation.offer(options.compression) {
            head.headers.add(name: "Sec-WebSocket-Extensions", value: offer)
        }
        let refusal = RefusalCollector(promise: channel.eventLoop.makePromise())
        let upgrader = NIOTypedWebSocketClientUpgrader<Outcome>(
            // Frames are checked against the message limit: a message is at least as large as each of its frames.
            maxFrameSize: options.maximumMessageSize, enableAutomaticErrorHandling: false
        ) { channel, response in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                // Out before anything else: bytes that came behind the `101` go on to the frame
                // decoder, whatever the check below finds. Its promise is not needed now (and a
                // promise left unfulfilled is a bug to SwiftNIO).
                _ = pipeline.removeHandler(refusal)
                refusal.finish(.failure(ChannelError.alreadyClosed))
                let subprotocol = try checked(response, offering: options.subprotocols)
                let inflateFailure = LockedState<NetworkError?>(nil)
                let extensions = try PerMessageDeflateNegotiation.extensions(
                    in: response, compression: options.compression, limit: options.maximumMessageSize, failure: inflateFailure)
                let watcher = ControlFrameWatcher(
                    reservedBits: extensions.reduce(into: []) { $0.formUnion($1.reservedBits) }, inflateFailure: inflateFailure)
                try pipeline.addHandler(watcher)
                let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                return .upgraded(asyncChannel, response, subprotocol: subprotocol, extensions: extensions, watcher: watcher)
            }
        }
        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
            upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                upgradeRequestHead: head, upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.declined) }))
        // Frames the server sent right behind its `101` go on to the frame decoder.
        configuration.leftOverBytesStrategy = .forwardBytes
        let outcome: EventLoopFuture<Outcome>
        let hold = EndOfInputHold()
        do {
            try pipeline.addHandler(hold)
            outcome = try pipeline.configureUpgradableHTTPClientPipeline(configuration: configuration)
            try pipeline.addHandler(refusal)
        } catch {
            refusal.finish(.failure(error))
            throw error
        }
        // Once the upgrade handler has passed on what it kept (frames, or a refusal's body), the
        // end of the connection may follow: on the next turn of the event loop.
        outcome.whenComplete { _ in channel.eventLoop.execute { hold.release() } }
        let timer = channel.eventLoop.scheduleTask(deadline: NIODeadline(deadline)) {
            refusal.finish(.failure(DeadlineExceeded()))
            channel.close(promise: nil)
        }
        // Declined: the answer reaches the collector once the upgrade handler has left.
        let answer = outcome.flatMap { outcome in
            guard case .declined = outcome else { return channel.eventLoop.makeSucceededFuture(outcome) }
            return refusal.promise.futureResult
        }
        answer.whenComplete { result in
            timer.cancel()
            if case .success(.refused) = result { channel.close(promise: nil) }
        }
        // The upgrade handler failed on its own (a bad `Sec-WebSocket-Accept`): nothing waits for a refusal.
        outcome.whenFailure { refusal.finish(.failure($0)) }
        return answer.flatMapErrorThrowing { error in
            // What ended the exchange (the connection closed, the deadline) says more than the
            // upgrade handler's own error for it.
            throw refusal.failure ?? (hold.sawEnd ? ChannelError.eof : networkError(for: error))
        }
    }

    /// The subprotocol of a `101`, checked against those offered.
    private static func checked(_ response: HTTPResponseHead, offering subprotocols: [String]) throws -> String? {
        let connection = response.headers[canonicalForm: "Connection"].map { $0.lowercased() }
        guard connection.contains("upgrade") else {
            throw invalidHandshake("the 101 has no Connection: Upgrade")
        }
        let chosen = response.headers["Sec-WebSocket-Protocol"]
        guard let subprotocol = chosen.first else { return nil }
        guard chosen.count == 1, subprotocols.contains(subprotocol) else {
            throw invalidHandshake("the server chose the subprotocol '\(chosen.joined(separator: ", "))', which was not offered")
        }
        return subprotocol
    }

    private static func invalidHandshake(_ detail: String) -> NetworkError {
        .webSocket(WebSocketFailure(kind: .invalidHandshake, detail: detail))
    }

    /// SwiftNIO's upgrade errors in our terms: a `101` that does not prove the server read the
    /// key (`Sec-WebSocket-Accept`), or names another protocol.
    private static func networkError(for error: any Error) -> any Error {
        guard let error = error as? NIOHTTPClientUpgradeError else { return error }
        switch error {
        case .upgraderDeniedUpgrade:
            return invalidHandshake("Sec-WebSocket-Accept does not match the key sent")
        case .responseProtocolNotFound:
            return invalidHandshake("the server switched to another protocol than websocket")
        default:
            return invalidHandshake("\(error)")
        }
    }
}

/// Before the HTTP decoder: holds back the end of the connection until the upgrade is decided.
///
/// A server may send its `101`, a frame and its FIN at once (a close frame with a code that
/// refuses the client, say). SwiftNIO's HTTP decoder drops the bytes behind an upgrade when it
/// sees the end of the connection before it has left the pipeline, and the frame would be lost;
/// held back, the end comes after the frames.
private final class EndOfInputHold: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var context: ChannelHandlerContext?
    private var holding = true
    private var held = false
    /// The connection ended while the upgrade was being decided (a server that hung up).
    private(set) var sawEnd = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        guard holding else { return context.fireChannelInactive() }
        held = true
        sawEnd = true
    }

    /// Lets the end through, now if it came meanwhile. On the event loop.
    func release() {
        holding = false
        if held, let context {
            held = false
            context.fireChannelInactive()
        }
    }
}

extension EndOfInputHold: @unchecked Sendable {}  // Touched on its event loop only.

/// After SwiftNIO's upgrade handler: the answer to an upgrade that was refused, with the first
/// ``WebSocketUpgrade/bodyLimit`` bytes of its body.
private final class RefusalCollector: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart

    let promise: EventLoopPromise<WebSocketUpgrade.Outcome>
    private let state = LockedState<(head: HTTPResponseHead?, body: ByteBuffer?, done: Bool)>((nil, nil, false))

    init(promise: EventLoopPromise<WebSocketUpgrade.Outcome>) {
        self.promise = promise
    }

    /// Completes the promise, once: the answer, the connection's end, the deadline or the
    /// upgrade handler's own failure, whichever comes first.
    func finish(_ result: Result<WebSocketUpgrade.Outcome, any Error>) {
        let first = state.withLock { state in
            defer { state.done = true }
            return !state.done
        }
        guard first else { return }
        if case .failure(let error) = result, error is DeadlineExceeded || error as? ChannelError == .eof {
            recorded.withLock { $0 = error }
        }
        promise.completeWith(result)
    }

    /// The end of the connection or the deadline, when one of them ended the exchange.
    var failure: (any Error)? { recorded.withLock { $0 } }
    private let recorded = LockedState<(any Error)?>(nil)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            state.withLock { $0.head = head }
        case .body(var part):
            state.withLock { state in
                let room = WebSocketUpgrade.bodyLimit - (state.body?.readableBytes ?? 0)
                guard room > 0, let slice = part.readSlice(length: min(room, part.readableBytes)) else { return }
                if state.body == nil { state.body = slice } else { state.body!.writeImmutableBuffer(slice) }
            }
        case .end:
            let (head, body) = state.withLock { ($0.head, $0.body) }
            if let head { finish(.success(.refused(head, body))) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(ChannelError.eof))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }
}
#endif
