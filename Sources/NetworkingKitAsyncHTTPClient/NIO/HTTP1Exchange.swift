#if AsyncHTTPClientTransport || DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1

/// One request on one ``HTTP1Connection``, shared by the caller's task (which waits for the
/// head), the connection's event loop (which delivers the answer), the request's timer and the
/// body's reader (which may let go early). Its ``ExchangeState`` decides; this carries it out.
final class HTTP1Exchange: BodyProducer, Sendable {
    typealias State = ExchangeState<CheckedContinuation<HTTPResponseHead, any Error>, DeadlineWatch.Ticket, Task<Void, Never>>

    let connection: HTTP1Connection
    let request: RequestSummary
    let requestID: String
    /// The answer's body, on its way to the reader.
    let pipe = BodyPipe(overflow: .backpressure(readAhead: NIOTransport.readAhead))
    private let state: LockedState<State>
    /// When the request started, and the phases the transport measured before it was sent.
    let timing: LockedState<TimingMarks>

    struct TimingMarks {
        let start: ContinuousClock.Instant
        var reused = false
        var waited: Duration = .zero
        var dns: Duration?
        var connect: Duration?
        var tls: Duration?
        var sent: Duration?
        var head: Duration?

        /// The marks so far, as the client reads them on the answer.
        var requestTiming: RequestTiming {
            var timing = RequestTiming(startingAt: start)
            timing.reusedConnection = reused
            timing.waitedForConnection = waited
            timing.dns = dns
            timing.connect = connect
            timing.tlsHandshake = tls
            timing.requestSent = sent
            timing.firstByte = head
            return timing
        }
    }

    /// The request's last byte was handed to the connection.
    func requestSent() {
        timing.withLock { $0.sent = $0.start.duration(to: .now) }
    }

    init(
        connection: HTTP1Connection, request: RequestSummary, requestID: String, deadlineEndsWithHead: Bool,
        timing: TimingMarks
    ) {
        self.connection = connection
        self.request = request
        self.requestID = requestID
        self.state = LockedState(State(deadlineEndsWithHead: deadlineEndsWithHead))
        self.timing = LockedState(timing)
    }

    /// Sends the request and waits for its head, within `deadline`; cancelling the caller ends
    /// the exchange (and closes the connection).
    func head(
        _ head: HTTPRequestHead, body: HTTP1RequestBody, deadline: ContinuousClock.Instant
    ) async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, any Error>) in
                if let refused = state.withLock({ $0.waitForHead(continuation) }) {
                    continuation.resume(throwing: refused.failure)
                    // The connection, leased for this exchange, goes back.
                    connection.start(self, head: head, body: body)
                    return
                }
                let ticket = DeadlineWatch.shared.arm(at: deadline) { [self] in
                    guard let ending = state.withLock({ $0.deadlinePassed(DeadlineExceeded()) }) else { return }
                    carryOut(ending, error: DeadlineExceeded(), dropsChunks: true)
                    connection.abort(self)
                }
                if let unused = state.withLock({ $0.armed(ticket) }) { DeadlineWatch.shared.disarm(unused) }
                connection.start(self, head: head, body: body)
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// Whether the exchange has ended.
    var hasEnded: Bool {
        state.withLock { if case .ended = $0.phase { true } else { false } }
    }

    // MARK: - The upload

    /// Sends a streamed body from a task of its own, each chunk once the one before it was
    /// written (the socket's pace). The last chunk goes with the end, flushed together: the
    /// connection knows the request is over before the server can have all of it (and answer),
    /// so a quick answer does not find the request unfinished and the connection is kept.
    func upload(_ body: HTTPBody, on channel: any Channel) {
        let task = Task { [self] in
            do {
                var pending: Data?
                for try await chunk in body {
                    guard !hasEnded else { return }
                    if let pending {
                        try await channel.writeAndFlush(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: pending)))).get()
                    }
                    pending = chunk
                }
                guard !hasEnded else { return }
                if let pending { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: pending))), promise: nil) }
                try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
            } catch {
                fail(error)
            }
        }
        if let late = state.withLock({ $0.uploading(task) }) { late.cancel() }
    }

    // MARK: - The event loop's side

    /// The head arrived: `send` goes on.
    func receivedHead(_ head: HTTPResponseHead) {
        timing.withLock { $0.head = $0.start.duration(to: .now) }
        let (waiter, deadline) = state.withLock { $0.headArrived() }
        if let deadline { DeadlineWatch.shared.disarm(deadline) }
        waiter?.resume(returning: head)
    }

    /// The answer ended well.
    func receivedEnd() {
        guard let ending = state.withLock({ $0.finished() }) else { return }
        ending.upload?.cancel()
        if let deadline = ending.deadline { DeadlineWatch.shared.disarm(deadline) }
        ending.headWaiter?.resume(throwing: ChannelError.eof)
        pipe.finish(.success(()))
        connection.report(self, succeeded: true)
    }

    /// Ends the exchange with `error` from any thread (its timer, a cancelled caller, a reader
    /// that lets go): what was not read is dropped, and the connection closes.
    func fail(_ error: any Error) {
        guard ended(error, dropsChunks: true) else { return }
        connection.abort(self)
    }

    /// The connection failed under the exchange (on its event loop): the reader gets what arrived,
    /// then the error.
    func connectionFailed(_ error: any Error) {
        _ = ended(error, dropsChunks: false)
    }

    private func ended(_ error: any Error, dropsChunks: Bool) -> Bool {
        guard let ending = state.withLock({ $0.failed(error) }) else { return false }
        carryOut(ending, error: error, dropsChunks: dropsChunks)
        return true
    }

    /// Wakes and stops what a failure found.
    private func carryOut(_ ending: State.Ending, error: any Error, dropsChunks: Bool) {
        ending.upload?.cancel()
        if let deadline = ending.deadline { DeadlineWatch.shared.disarm(deadline) }
        ending.headWaiter?.resume(throwing: error)
        pipe.finish(.failure(error), dropsChunks: dropsChunks)
        connection.report(self, succeeded: false)
    }

    // MARK: - The reader's side

    func stop(_ error: any Error) {
        fail(error)
    }

    func readerError(for error: any Error) -> any Error {
        AsyncHTTPClientErrorMapping.networkError(for: error, phase: .body, request: request)
    }
}

/// A request's body as the connection sends it.
enum HTTP1RequestBody: Sendable {
    case none
    case bytes(ByteBuffer)
    case stream(HTTPBody)
}
#endif
