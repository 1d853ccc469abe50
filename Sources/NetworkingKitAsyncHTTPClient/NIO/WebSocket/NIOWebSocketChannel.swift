#if AsyncHTTPClientTransport || DemoAPI
import Foundation
import Logging
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// An upgraded connection as a ``/NetworkingKit/WebSocketChannel``, run by swift-websocket's
/// handler (masking, fragmented sends, answers to pings, the close handshake and its timeout,
/// its own pings when asked).
///
/// Messages are read only when the app asks for one: the handler's reading happens in its own
/// task, which takes each ``receive()`` in turn, so that a reader that falls behind leaves the
/// socket unread (backpressure to the server) rather than a queue growing in memory.
final class NIOWebSocketChannel: WebSocketChannel {
    /// A `receive()` waiting for its message, answered once.
    private final class Read: Sendable {
        private let continuation = LockedState<CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>?>(nil)

        func wait(_ continuation: CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        func answer(_ result: Result<NetworkingKit.WebSocketMessage?, any Error>) {
            continuation.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }?.resume(with: result)
        }
    }

    private struct State {
        /// Reads not yet taken by the handler's task.
        var reads: [Read] = []
        /// The handler's task, waiting for a read.
        var reader: CheckedContinuation<Read?, Never>?
        /// No more reads will be taken: the app closed, or reading ended.
        var stopped = false
        /// The handler has returned: the connection is closed.
        var ended = false
        var closeReceived: WebSocketClose?
        /// Why the connection ended, when not by a close handshake.
        var failure: NetworkError?
    }

    let subprotocol: String?
    private let state = LockedState(State())
    private let outbound: WebSocketOutboundWriter
    private let channel: any Channel
    private let watcher: ControlFrameWatcher
    private let run: Task<Void, Never>

    private init(
        subprotocol: String?, outbound: WebSocketOutboundWriter, channel: any Channel, watcher: ControlFrameWatcher, run: Task<Void, Never>
    ) {
        self.subprotocol = subprotocol
        self.outbound = outbound
        self.channel = channel
        self.watcher = watcher
        self.run = run
    }

    /// Runs swift-websocket's handler on `asyncChannel` and returns the channel once it is running.
    static func start(
        _ asyncChannel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, subprotocol: String?, watcher: ControlFrameWatcher,
        options: WebSocketOptions, logger: Logger
    ) async throws -> NIOWebSocketChannel {
        let configuration = WebSocketHandler.Configuration(
            extensions: [], autoPing: options.pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled,
            closeTimeout: closeTimeout, validateUTF8: false, maxFrameSize: outboundFrameSize)
        let limit = options.maximumMessageSize
        // The channel exists once the handler hands over its writer; the handler's closure runs
        // until the channel stops taking reads.
        let (handover, handoverContinuation) = AsyncStream<(WebSocketOutboundWriter, WebSocketInboundStream)>.makeStream()
        let made = LockedState<NIOWebSocketChannel?>(nil)
        let (madeSignal, madeContinuation) = AsyncStream<Void>.makeStream()
        let run = Task {
            var ending: NetworkError?
            var closeFrame: WebSocketCloseFrame?
            do {
                closeFrame = try await WebSocketHandler.handle(
                    type: .client, configuration: configuration, asyncChannel: asyncChannel,
                    context: Context(logger: logger)
                ) { inbound, outbound, _ in
                    handoverContinuation.yield((outbound, inbound))
                    handoverContinuation.finish()
                    for await _ in madeSignal {}
                    guard let channel = made.withLock({ $0 }) else { return }
                    await channel.serveReads(inbound, outbound: outbound, limit: limit)
                }
            } catch {
                ending = Self.failure(for: error)
            }
            handoverContinuation.finish()
            made.withLock { $0 }?.ended(closeFrame: closeFrame, failure: ending)
        }
        var iterator = handover.makeAsyncIterator()
        guard let (outbound, _) = await iterator.next() else {
            await run.value
            throw NetworkError.webSocket(WebSocketFailure(kind: .connectionLost, detail: "the connection closed as it opened"))
        }
        let channel = NIOWebSocketChannel(
            subprotocol: subprotocol, outbound: outbound, channel: asyncChannel.channel, watcher: watcher, run: run)
        made.withLock { $0 = channel }
        madeContinuation.finish()
        return channel
    }

    /// The size of the frames a message is sent in: what servers take by default (Hummingbird's
    /// and swift-websocket's 16 KiB).
    static let outboundFrameSize = 1 << 14
    /// How long a close handshake waits for the server's reply before closing the connection.
    static let closeTimeout: Duration = .seconds(10)

    private struct Context: WebSocketContext {
        let logger: Logger
    }

    var closeReceived: WebSocketClose? { state.withLock { $0.closeReceived } }

    func send(_ message: NetworkingKit.WebSocketMessage) async throws {
        if let failure = closedFailure() { throw failure }
        do {
            switch message {
            case .text(let text): try await outbound.writeTextMessage(text)
            case .binary(let data): try await outbound.writeBinaryMessage(ByteBuffer(bytes: data))
            }
        } catch {
            throw closedFailure() ?? Self.failure(for: error)
        }
    }

    func receive() async throws -> NetworkingKit.WebSocketMessage? {
        let read = Read()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                read.wait(continuation)
                enqueue(read)
            }
        } onCancel: {
            read.answer(.failure(NetworkError.cancelled))
            Task { await self.close(WebSocketClose(code: .goingAway)) }
        }
    }

    func ping() async throws {
        if let failure = closedFailure() { throw failure }
        var payload = ByteBuffer()
        payload.writeInteger(UInt64.random(in: .min ... .max))
        let channel = channel
        let pong = channel.eventLoop.flatSubmit { [payload] in
            do {
                return try channel.pipeline.syncOperations.handler(type: ControlFrameWatcher.self).pong(for: payload, on: channel.eventLoop)
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        do {
            try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: payload)))
            try await pong.get()
        } catch {
            throw closedFailure() ?? Self.failure(for: error)
        }
    }

    func close(_ close: WebSocketClose) async {
        let alreadyEnded = state.withLock { $0.ended }
        if !alreadyEnded {
            try? await outbound.close(WebSocketErrorCode(codeNumber: Int(close.code.rawValue)), reason: close.reason)
        }
        stopReads()
        await run.value
    }

    // MARK: - Reads, in the handler's task

    private func enqueue(_ read: Read) {
        let (reader, result) = state.withLock {
            state -> (CheckedContinuation<Read?, Never>?, Result<NetworkingKit.WebSocketMessage?, any Error>?) in
            if state.ended { return (nil, state.failure.map { .failure($0) } ?? .success(nil)) }
            if state.stopped { return (nil, .success(nil)) }
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            state.reads.append(read)
            return (nil, nil)
        }
        if let result { read.answer(result) }
        reader?.resume(returning: read)
    }

    /// The next read to serve, or `nil` once reads have stopped.
    private func nextRead() async -> Read? {
        await withCheckedContinuation { continuation in
            let next = state.withLock { state -> Read?? in
                if !state.reads.isEmpty { return .some(state.reads.removeFirst()) }
                if state.stopped { return .some(nil) }
                state.reader = continuation
                return nil
            }
            if let next { continuation.resume(returning: next) }
        }
    }

    private func stopReads() {
        let reader = state.withLock { state in
            state.stopped = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }

    /// Serves each read with the next whole message, until the connection closes or fails.
    private func serveReads(_ inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, limit: Int) async {
        var frames = inbound.makeAsyncIterator()
        while let read = await nextRead() {
            do {
                guard let message = try await Self.nextMessage(from: &frames, limit: limit, outbound: outbound) else {
                    // The close handshake is over: the read is answered once its frame is known.
                    state.withLock { $0.reads.insert(read, at: 0) }
                    break
                }
                read.answer(.success(message))
            } catch {
                let failure = Self.failure(for: error)
                state.withLock { $0.failure = $0.failure ?? failure }
                read.answer(.failure(failure))
                break
            }
        }
        stopReads()
    }

    /// A message assembled from its frames, within `limit` bytes; a larger one, or text that is
    /// not UTF-8, closes the connection with the code RFC 6455 gives it.
    private static func nextMessage(
        from frames: inout WebSocketInboundStream.AsyncIterator, limit: Int, outbound: WebSocketOutboundWriter
    ) async throws -> NetworkingKit.WebSocketMessage? {
        var collected: ByteBuffer?
        var isText = false
        while true {
            let frame: WebSocketDataFrame
            do {
                guard let next = try await frames.next() else { return nil }
                frame = next
            } catch NIOWebSocketError.invalidFrameLength {
                throw await closing(.messageTooBig, .messageTooLarge, detail: "a frame over \(limit) bytes", outbound: outbound)
            }
            switch frame.opcode {
            case .text, .binary:
                guard collected == nil else {
                    throw await closing(.protocolError, .protocolViolation, detail: "a new message inside another", outbound: outbound)
                }
                isText = frame.opcode == .text
                collected = frame.data
            case .continuation:
                guard var buffer = collected else {
                    throw await closing(.protocolError, .protocolViolation, detail: "a continuation with no message", outbound: outbound)
                }
                guard buffer.readableBytes + frame.data.readableBytes <= limit else {
                    throw await closing(
                        .messageTooBig, .messageTooLarge, detail: "a message over \(limit) bytes", outbound: outbound)
                }
                var data = frame.data
                buffer.writeBuffer(&data)
                collected = buffer
            }
            guard frame.fin, let buffer = collected else { continue }
            guard isText else { return .binary(Data(buffer.readableBytesView)) }
            guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
                throw await closing(.invalidPayload, .protocolViolation, detail: "a text message that is not UTF-8", outbound: outbound)
            }
            return .text(text)
        }
    }

    /// Begins the close handshake with `code`, and the failure the reader gets.
    private static func closing(
        _ code: WebSocketCloseCode, _ kind: WebSocketFailure.Kind, detail: String, outbound: WebSocketOutboundWriter
    ) async -> NetworkError {
        try? await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: nil)
        return .webSocket(WebSocketFailure(kind: kind, detail: detail, close: WebSocketClose(code: code)))
    }

    /// The handler has returned: pending reads end, with the server's close frame or the failure.
    private func ended(closeFrame: WebSocketCloseFrame?, failure: NetworkError?) {
        // The watcher saw the frame even when the handler, the server gone before it answered, reports none.
        let close =
            watcher.closeReceived.withLock { $0 }
            ?? closeFrame.map {
                WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(clamping: Self.number(of: $0.closeCode))), reason: $0.reason ?? "")
            }
        let (reads, reader, result) = state.withLock { state in
            state.ended = true
            state.stopped = true
            state.closeReceived = state.closeReceived ?? close
            if state.closeReceived == nil, state.failure == nil {
                state.failure = failure ?? .webSocket(WebSocketFailure(kind: .connectionLost))
            }
            defer {
                state.reads = []
                state.reader = nil
            }
            let result: Result<NetworkingKit.WebSocketMessage?, any Error> =
                state.closeReceived != nil ? .success(nil) : .failure(state.failure ?? .webSocket(WebSocketFailure(kind: .connectionLost)))
            return (state.reads, state.reader, result)
        }
        reader?.resume(returning: nil)
        for read in reads { read.answer(result) }
    }

    /// The failure of an operation on a connection that has ended: closed by a handshake, or lost.
    private func closedFailure() -> NetworkError? {
        state.withLock { state in
            guard state.ended || state.stopped else { return nil }
            if let failure = state.failure, state.closeReceived == nil { return failure }
            return .webSocket(WebSocketFailure(kind: .closed, close: state.closeReceived))
        }
    }

    private static func failure(for error: any Error) -> NetworkError {
        switch error {
        case let error as NetworkError: return error
        case is CancellationError: return .cancelled
        case NIOWebSocketError.invalidFrameLength:
            return .webSocket(WebSocketFailure(kind: .messageTooLarge, close: WebSocketClose(code: .messageTooBig), underlying: error))
        case is NIOWebSocketError:
            return .webSocket(WebSocketFailure(kind: .protocolViolation, underlying: error))
        default:
            return .webSocket(WebSocketFailure(kind: .connectionLost, underlying: error))
        }
    }

    private static func number(of code: WebSocketErrorCode) -> Int {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: code)
        return Int(buffer.readInteger(as: UInt16.self) ?? 1005)
    }
}
#endif
