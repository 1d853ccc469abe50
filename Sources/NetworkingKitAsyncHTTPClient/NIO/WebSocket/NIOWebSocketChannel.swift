#if AsyncHTTPClientTransport || DemoAPI
import Foundation
import Logging
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// An upgraded connection as a ``/NetworkingKit/WebSocketChannel``, run by swift-websocket's
/// handler (masking, answers to pings, the close handshake and its timeout).
///
/// Messages are read only when the app asks for one (``WebSocketReads``): a reader that falls
/// behind leaves the socket unread, backpressure to the server, rather than a queue growing in
/// memory. Each message is sent as one frame, as browsers and URLSession send them, so that two
/// tasks sending at once cannot interleave their frames.
final class NIOWebSocketChannel: WebSocketChannel {
    let subprotocol: String?
    private let reads: WebSocketReads
    private let outbound: WebSocketOutboundWriter
    private let channel: any Channel
    private let watcher: ControlFrameWatcher
    private let run: Task<Void, Never>
    private let writes = WriteGate()

    private init(
        subprotocol: String?, reads: WebSocketReads, outbound: WebSocketOutboundWriter, channel: any Channel,
        watcher: ControlFrameWatcher, run: Task<Void, Never>
    ) {
        self.subprotocol = subprotocol
        self.reads = reads
        self.outbound = outbound
        self.channel = channel
        self.watcher = watcher
        self.run = run
    }

    /// Nobody holds the connection any more (a middleware dropped the answer that carried it, or
    /// the app let it go): the socket closes, and the handler with it.
    deinit {
        reads.stop()
        channel.close(promise: nil)
    }

    /// How long a close handshake waits for the server's reply before closing the connection.
    static let closeTimeout: Duration = .seconds(10)

    /// Runs swift-websocket's handler on `asyncChannel` and returns the channel once it is running.
    static func start(
        _ asyncChannel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, subprotocol: String?,
        extensions: [any WebSocketExtension], watcher: ControlFrameWatcher, options: WebSocketOptions, logger: Logger
    ) async throws -> NIOWebSocketChannel {
        let configuration = WebSocketHandler.Configuration(
            extensions: extensions, autoPing: .disabled, closeTimeout: closeTimeout, validateUTF8: false,
            maxFrameSize: options.maximumMessageSize)
        let limit = options.maximumMessageSize
        let reads = WebSocketReads(watcher: watcher)
        let handover = Handover()
        // The task holds the reads, not the channel: dropping the channel closes the connection.
        let run = Task {
            var ending: NetworkError?
            var closeFrame: WebSocketCloseFrame?
            do {
                closeFrame = try await WebSocketHandler.handle(
                    type: .client, configuration: configuration, asyncChannel: asyncChannel, context: Context(logger: logger)
                ) { inbound, outbound, _ in
                    handover.give(outbound)
                    await reads.serve(inbound, outbound: outbound, limit: limit)
                }
            } catch {
                ending = WebSocketReads.failure(for: error)
            }
            handover.give(nil)
            reads.ended(closeFrame: closeFrame, failure: ending)
        }
        // Not cancellable: the handler's task runs on its own, and ends with the connection.
        guard let outbound = await handover.take() else {
            await run.value
            throw NetworkError.webSocket(WebSocketFailure(kind: .connectionLost, detail: "the connection closed as it opened"))
        }
        return NIOWebSocketChannel(
            subprotocol: subprotocol, reads: reads, outbound: outbound, channel: asyncChannel.channel, watcher: watcher, run: run)
    }

    private struct Context: WebSocketContext {
        let logger: Logger
    }

    /// The handler's writer, handed from its task to the opener once, whoever comes first.
    private final class Handover: Sendable {
        private let state = LockedState<(waiting: CheckedContinuation<WebSocketOutboundWriter?, Never>?, given: WebSocketOutboundWriter??)>(
            (nil, nil))

        func give(_ outbound: WebSocketOutboundWriter?) {
            let waiting = state.withLock { state -> CheckedContinuation<WebSocketOutboundWriter?, Never>? in
                guard state.given == nil else { return nil }
                state.given = .some(outbound)
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(returning: outbound)
        }

        func take() async -> WebSocketOutboundWriter? {
            await withCheckedContinuation { continuation in
                let given = state.withLock { state -> WebSocketOutboundWriter?? in
                    if state.given == nil { state.waiting = continuation }
                    return state.given
                }
                if let given { continuation.resume(returning: given) }
            }
        }
    }

    var closeReceived: WebSocketClose? { reads.closeReceived }

    func send(_ message: NetworkingKit.WebSocketMessage) async throws {
        if let failure = reads.closedFailure() { throw failure }
        guard writes.enter() else { throw closedFailure() }
        defer { writes.leave() }
        do {
            switch message {
            case .text(let text): try await outbound.write(.text(text))
            case .binary(let data): try await outbound.write(.binary(ByteBuffer(bytes: data)))
            }
        } catch {
            throw reads.closedFailure() ?? closedByServer() ?? WebSocketReads.failure(for: error)
        }
    }

    /// Why a write cannot begin: the connection is closing or has ended.
    private func closedFailure() -> NetworkError {
        reads.closedFailure() ?? .webSocket(WebSocketFailure(kind: .closed, close: reads.closeReceived))
    }

    /// `closed`, with the server's close frame, when one came before the connection ended.
    private func closedByServer() -> NetworkError? {
        watcher.closeReceived.withLock { $0 }.map { .webSocket(WebSocketFailure(kind: .closed, close: $0)) }
    }

    func receive() async throws -> NetworkingKit.WebSocketMessage? {
        let read = WebSocketReads.Read()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled already: the read is answered, and not queued.
                if read.wait(continuation) { reads.enqueue(read) }
            }
        } onCancel: {
            read.answer(.failure(NetworkError.cancelled))
            Task { await self.close(WebSocketClose(code: .goingAway)) }
        }
    }

    func ping() async throws {
        if let failure = reads.closedFailure() { throw failure }
        guard writes.enter() else { throw closedFailure() }
        defer { writes.leave() }
        var random = ByteBuffer()
        random.writeInteger(UInt64.random(in: .min ... .max))
        let (channel, watcher, payload) = (channel, watcher, random)
        let pong = channel.eventLoop.submit { watcher.pong(for: payload, on: channel.eventLoop) }
        do {
            try await withTaskCancellationHandler {
                try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: payload)))
                try await pong.get().get()
            } onCancel: {
                channel.eventLoop.execute { watcher.forget(payload) }
            }
        } catch {
            if Task.isCancelled { throw NetworkError.cancelled }
            throw reads.closedFailure() ?? closedByServer() ?? WebSocketReads.failure(for: error)
        }
    }

    func close(_ close: WebSocketClose) async {
        // Armed first: a peer that reads nothing can hold the close frame's write itself, and a
        // server that never answers it holds the handshake; either is cut off.
        let channel = channel
        let cutOff = channel.eventLoop.scheduleTask(in: TimeAmount(Self.closeTimeout)) { channel.close(promise: nil) }
        if reads.beginClosing() {
            // After the messages already on their way: a close frame ends what the app sent.
            await writes.closeAndWait()
            try? await outbound.close(WebSocketErrorCode(codeNumber: Int(close.code.rawValue)), reason: close.reason)
        }
        // Messages sent before the server's close frame still reach a reader; the rest are kept or dropped.
        reads.drainUntilClosed()
        await run.value
        cutOff.cancel()
    }
}
#endif
