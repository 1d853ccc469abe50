#if AsyncHTTPClientTransport || DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// The reads of one ``NIOWebSocketChannel``: the app's `receive()` calls, queued, and served one
/// at a time by the handler's task, which alone reads frames; and how the connection ended.
final class WebSocketReads: Sendable {
    /// A `receive()` waiting for its message, answered once.
    final class Read: Sendable {
        private let state = LockedState<
            (continuation: CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>?, early: Result<NetworkingKit.WebSocketMessage?, any Error>?)
        >((nil, nil))

        /// Waits with `continuation`; `false` when the read was answered before (its task
        /// cancelled), and the continuation resumed here.
        func wait(_ continuation: CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>) -> Bool {
            let early = state.withLock { state -> Result<NetworkingKit.WebSocketMessage?, any Error>? in
                if state.early == nil { state.continuation = continuation }
                return state.early
            }
            guard let early else { return true }
            continuation.resume(with: early)
            return false
        }

        func answer(_ result: Result<NetworkingKit.WebSocketMessage?, any Error>) {
            state.withLock { state -> CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>? in
                guard state.early == nil else { return nil }
                state.early = result
                defer { state.continuation = nil }
                return state.continuation
            }?.resume(with: result)
        }
    }

    private struct State {
        /// Reads not yet taken by the handler's task.
        var reads: [Read] = []
        /// The handler's task, waiting for a read.
        var reader: CheckedContinuation<Read?, Never>?
        /// The app began the close handshake.
        var closing = false
        /// No more reads will be taken: the app closed, or reading ended.
        var stopped = false
        /// The handler has returned: the connection is closed.
        var ended = false
        var closeReceived: WebSocketClose?
        /// Why the connection ended, when not by a close handshake.
        var failure: NetworkError?
    }

    private let state = LockedState(State())
    private let watcher: ControlFrameWatcher

    init(watcher: ControlFrameWatcher) {
        self.watcher = watcher
    }

    var closeReceived: WebSocketClose? { state.withLock { $0.closeReceived } }

    /// Marks the close handshake begun: `false` when it had begun already, or the connection ended.
    func beginClosing() -> Bool {
        state.withLock { state in
            defer { state.closing = true }
            return !state.closing && !state.ended
        }
    }

    func enqueue(_ read: Read) {
        let (reader, result) = state.withLock {
            state -> (CheckedContinuation<Read?, Never>?, Result<NetworkingKit.WebSocketMessage?, any Error>?) in
            if state.ended || state.stopped { return (nil, Self.endResult(state)) }
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

    /// What a read gets once reading has ended: `nil` after a close handshake (or the app's
    /// close), the failure otherwise; while the connection is still closing, `nil`.
    private static func endResult(_ state: State) -> Result<NetworkingKit.WebSocketMessage?, any Error> {
        if let failure = state.failure, state.closeReceived == nil { return .failure(failure) }
        return .success(nil)
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

    /// No more reads are taken; the handler's task, if it waits for one, goes on to close.
    func stop() {
        let reader = state.withLock { state in
            state.stopped = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }

    /// Serves each read with the next whole message, until the connection closes or fails.
    func serve(_ inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, limit: Int) async {
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
        stop()
    }

    /// A message assembled from its frames, within `limit` bytes; a larger one, text that is not
    /// UTF-8, or a frame out of place closes the connection with the code RFC 6455 gives it.
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
            } catch let error as NIOWebSocketError {
                throw await closing(.protocolError, .protocolViolation, detail: "\(error)", outbound: outbound)
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
                    throw await closing(.messageTooBig, .messageTooLarge, detail: "a message over \(limit) bytes", outbound: outbound)
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
    func ended(closeFrame: WebSocketCloseFrame?, failure: NetworkError?) {
        // The watcher saw the frame even when the handler, the server gone before it answered, reports none.
        let close =
            watcher.closeReceived.withLock { $0 }
            ?? closeFrame.map {
                WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(clamping: Self.number(of: $0.closeCode))), reason: $0.reason ?? "")
            }
        let violation = watcher.violation.withLock { $0 }
        let (reads, reader, result) = state.withLock { state in
            state.ended = true
            state.stopped = true
            state.closeReceived = state.closeReceived ?? close
            if let violation {
                state.failure = state.failure ?? .webSocket(WebSocketFailure(kind: .protocolViolation, detail: violation))
            }
            if state.closeReceived == nil, state.failure == nil {
                state.failure = failure ?? .webSocket(WebSocketFailure(kind: .connectionLost))
            }
            defer {
                state.reads = []
                state.reader = nil
            }
            return (state.reads, state.reader, Self.endResult(state))
        }
        reader?.resume(returning: nil)
        for read in reads { read.answer(result) }
    }

    /// The failure of an operation on a connection that has ended or is closing: closed by a
    /// handshake, or lost.
    func closedFailure() -> NetworkError? {
        state.withLock { state in
            guard state.ended || state.stopped || state.closing else { return nil }
            if let failure = state.failure, state.closeReceived == nil { return failure }
            return .webSocket(WebSocketFailure(kind: .closed, close: state.closeReceived))
        }
    }

    static func failure(for error: any Error) -> NetworkError {
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
