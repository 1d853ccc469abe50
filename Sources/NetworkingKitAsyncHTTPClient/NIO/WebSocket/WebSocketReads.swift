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
            (
                continuation: CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>?,
                early: Result<NetworkingKit.WebSocketMessage?, any Error>?
            )
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

        /// Answers the read: `false` when it had been answered already (its task cancelled), and
        /// `result` reached nobody.
        @discardableResult
        func answer(_ result: Result<NetworkingKit.WebSocketMessage?, any Error>) -> Bool {
            let (first, continuation) = state.withLock {
                state -> (Bool, CheckedContinuation<NetworkingKit.WebSocketMessage?, any Error>?) in
                guard state.early == nil else { return (false, nil) }
                state.early = result
                defer { state.continuation = nil }
                return (true, state.continuation)
            }
            continuation?.resume(with: result)
            return first
        }

        /// Whether the read has its answer (a message, the end, or its cancellation).
        var isAnswered: Bool { state.withLock { $0.early != nil } }
    }

    private struct State {
        /// Reads not yet taken by the handler's task.
        var reads: [Read] = []
        /// Messages read after the app's close frame while no read waited, kept for the next reads.
        var kept: [NetworkingKit.WebSocketMessage] = []
        /// The handler's task, waiting for a read.
        var reader: CheckedContinuation<Next, Never>?
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

    /// How many messages that arrive after the app's close frame, while no read waits, are kept
    /// for later reads; those past it are dropped.
    static let keptWhileClosing = 64

    /// The close frame is sent: the handler's task, if it waits for a read, reads on (keeping
    /// what no reader asks for, within ``keptWhileClosing``) until the server's close frame ends
    /// the handshake.
    func drainUntilClosed() {
        let reader = state.withLock { state in
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: .drain)
    }

    /// What the handler's task does next.
    enum Next {
        /// Serve this read.
        case read(Read)
        /// Read a message nobody asked for yet: the app closed, and the server's close frame is awaited.
        case drain
        /// Stop reading.
        case stop
    }

    func enqueue(_ read: Read) {
        let (reader, result) = state.withLock {
            state -> (CheckedContinuation<Next, Never>?, Result<NetworkingKit.WebSocketMessage?, any Error>?) in
            if !state.kept.isEmpty, !read.isAnswered { return (nil, .success(state.kept.removeFirst())) }
            if state.ended { return (nil, Self.endResult(state)) }
            // Reading has stopped, the end not yet known: answered with it.
            if state.stopped {
                state.reads.append(read)
                return (nil, nil)
            }
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            state.reads.append(read)
            return (nil, nil)
        }
        if let result { read.answer(result) }
        reader?.resume(returning: .read(read))
    }

    /// What a read gets once reading has ended: `nil` after a close handshake (or the app's
    /// close), the failure otherwise; while the connection is still closing, `nil`.
    private static func endResult(_ state: State) -> Result<NetworkingKit.WebSocketMessage?, any Error> {
        if let failure = state.failure, state.closeReceived == nil { return .failure(failure) }
        return .success(nil)
    }

    /// The next read to serve, a message to drop while closing, or the end.
    private func next() async -> Next {
        await withCheckedContinuation { continuation in
            let next = state.withLock { state -> Next? in
                if !state.reads.isEmpty { return .read(state.reads.removeFirst()) }
                if state.stopped { return .stop }
                if state.closing { return .drain }
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
        reader?.resume(returning: .stop)
    }

    /// Serves each read with the next whole message, until the connection closes or fails.
    func serve(_ inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, limit: Int) async {
        var frames = inbound.makeAsyncIterator()
        reading: while true {
            let read: Read?
            switch await next() {
            case .read(let next): read = next
            case .drain: read = nil
            case .stop: break reading
            }
            do {
                guard let message = try await nextMessage(from: &frames, limit: limit, outbound: outbound) else {
                    // The close handshake is over: the read is answered once its frame is known.
                    if let read { state.withLock { $0.reads.insert(read, at: 0) } }
                    break
                }
                if read?.answer(.success(message)) != true { deliver(message) }
            } catch {
                let failure = Self.failure(for: error)
                state.withLock { $0.failure = $0.failure ?? failure }
                read?.answer(.failure(failure))
                break
            }
        }
        stop()
    }

    /// A message assembled from its frames, within `limit` bytes; a larger one, text that is not
    /// UTF-8, or a frame out of place closes the connection with the code RFC 6455 gives it.
    private func nextMessage(
        from frames: inout WebSocketInboundStream.AsyncIterator, limit: Int, outbound: WebSocketOutboundWriter
    ) async throws -> NetworkingKit.WebSocketMessage? {
        var collected: ByteBuffer?
        var isText = false
        while true {
            let frame: WebSocketDataFrame
            do {
                let next = try await frames.next()
                // A message that did not inflate (``PerMessageDeflateNegotiation/Reporting``):
                // closed with the code it carries.
                if let failure = watcher.inflateFailure.withLock({ $0 }) {
                    if case .webSocket(let failure) = failure, let code = failure.close?.code {
                        try? await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: nil)
                    }
                    throw failure
                }
                guard let next else { return nil }
                frame = next
            } catch NIOWebSocketError.invalidFrameLength {
                throw await Self.closing(.messageTooBig, .messageTooLarge, detail: "a frame over \(limit) bytes", outbound: outbound)
            } catch let error as NIOWebSocketError {
                throw await Self.closing(.protocolError, .protocolViolation, detail: "\(error)", outbound: outbound)
            }
            switch frame.opcode {
            case .text, .binary:
                guard collected == nil else {
                    throw await Self.closing(.protocolError, .protocolViolation, detail: "a new message inside another", outbound: outbound)
                }
                // An inflated frame may reach one byte past the limit (see PerMessageDeflateNegotiation).
                guard frame.data.readableBytes <= limit else {
                    throw await Self.closing(.messageTooBig, .messageTooLarge, detail: "a message over \(limit) bytes", outbound: outbound)
                }
                isText = frame.opcode == .text
                collected = frame.data
            case .continuation:
                guard var buffer = collected else {
                    throw await Self.closing(
                        .protocolError, .protocolViolation, detail: "a continuation with no message", outbound: outbound)
                }
                guard buffer.readableBytes + frame.data.readableBytes <= limit else {
                    throw await Self.closing(.messageTooBig, .messageTooLarge, detail: "a message over \(limit) bytes", outbound: outbound)
                }
                var data = frame.data
                buffer.writeBuffer(&data)
                collected = buffer
            }
            guard frame.fin, let buffer = collected else { continue }
            guard isText else { return .binary(Data(buffer.readableBytesView)) }
            guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
                throw await Self.closing(
                    .invalidPayload, .protocolViolation, detail: "a text message that is not UTF-8", outbound: outbound)
            }
            return .text(text)
        }
    }

    /// A message no read took (drained after the app's close, or its read cancelled meanwhile):
    /// to the next read waiting, or kept for a later one within ``keptWhileClosing``.
    private func deliver(_ message: NetworkingKit.WebSocketMessage) {
        while true {
            let waiting = state.withLock { state -> Read? in
                if !state.reads.isEmpty { return state.reads.removeFirst() }
                if state.kept.count < Self.keptWhileClosing { state.kept.append(message) }
                return nil
            }
            guard let waiting else { return }
            if waiting.answer(.success(message)) { return }
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
                WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(webSocketErrorCode: $0.closeCode)), reason: $0.reason ?? "")
            }
        let violation = watcher.violation.withLock { $0 } ?? watcher.inflateFailure.withLock { $0 }
        let (reads, reader) = state.withLock { state in
            state.ended = true
            state.stopped = true
            state.closeReceived = state.closeReceived ?? close
            if let violation {
                state.failure = state.failure ?? violation
            }
            if state.closeReceived == nil, state.failure == nil {
                state.failure = failure ?? .webSocket(WebSocketFailure(kind: .connectionLost))
            }
            // Messages kept while closing go to the first reads, the end to the others.
            var answers: [(Read, Result<NetworkingKit.WebSocketMessage?, any Error>)] = []
            for read in state.reads where !read.isAnswered {
                answers.append((read, state.kept.isEmpty ? Self.endResult(state) : .success(state.kept.removeFirst())))
            }
            defer {
                state.reads = []
                state.reader = nil
            }
            return (answers, state.reader)
        }
        reader?.resume(returning: .stop)
        for (read, answer) in reads { read.answer(answer) }
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
}
#endif
