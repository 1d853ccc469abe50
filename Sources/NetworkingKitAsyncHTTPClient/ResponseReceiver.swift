#if AsyncHTTPClientTransport || DemoAPI
import AsyncHTTPClient
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1

/// One bodiless request's answer as AsyncHTTPClient delivers it to a delegate, on its event
/// loop: the head for the transport's `send`, then the body's chunks for the body's reader, with
/// the request's deadline over the whole exchange.
///
/// AsyncHTTPClient's async `execute` bounds only the wait for the head, and its body can be
/// stopped only by cancelling the task that reads it: so that a deadline can end the read without
/// cancelling the caller, that body is read in a task of its own (``BodyPump``). A delegate needs
/// none: ``fail(_:)`` ends the request from any thread (the deadline, a cancelled caller, a reader
/// that lets go), and the event loop hands over what it reads, through a
/// ``/NetworkingKit/BodyPipe`` whose room is the future AsyncHTTPClient waits on.
///
/// Only a request without a body goes this way: AsyncHTTPClient tells a delegate that the answer
/// has ended only once the request body has been sent too, so an answer that comes before the
/// upload is over (a redirect, a 413) would wait for a server that no longer reads.
final class ResponseReceiver: HTTPClientResponseDelegate, BodyProducer, Sendable {
    typealias Response = Void

    private struct State {
        /// `send`, waiting for the head.
        var head: CheckedContinuation<HTTPResponseHead, any Error>?
        /// Response heads seen: more than one means the client followed a redirect itself.
        var visits = 0
        /// The request, once `execute` has returned it; until then a failure waits in `end`.
        var task: HTTPClient.Task<Void>?
        var end: Result<Void, any Error>?
        var deadline: DeadlineWatch.Ticket?
        /// The deadline ends with the head (a streamed answer's body may take as long as it lasts).
        var headOnlyDeadline = false
        var headArrived = false
    }

    /// Why an answer is refused when the client followed a redirect itself.
    static let followedRedirect =
        "the HTTPClient followed a redirect itself; create it with redirectConfiguration: .disallow "
        + "(see AsyncHTTPClientTransport.recommendedConfiguration()) so that RedirectPolicy applies"

    private let state = LockedState(State())
    private let pipe = BodyPipe(overflow: .backpressure(readAhead: AsyncHTTPClientTransport.readAhead))
    /// The longest the body's reader waits for its next chunk (a streamed answer's timeout).
    private let idleTimeout: Duration?
    /// The request, named in the body's errors.
    private let request: RequestSummary

    init(idleTimeout: Duration? = nil, request: RequestSummary = RequestSummary(method: .get, url: nil)) {
        self.idleTimeout = idleTimeout
        self.request = request
    }

    /// Sends the request `start` executes (with this receiver as its delegate) and returns its
    /// head, within `deadline` (for the head only, or for the whole exchange). Cancelling the
    /// caller ends the request.
    func head(
        deadline: ContinuousClock.Instant?, headOnly: Bool, start: (ResponseReceiver) -> HTTPClient.Task<Void>
    ) async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, any Error>) in
                // Cancelled before it could start: `onCancel` ran first, and found nothing to end.
                let endedEarly = state.withLock { state -> (any Error)? in
                    if case .failure(let error)? = state.end { return error }
                    state.head = continuation
                    state.headOnlyDeadline = headOnly
                    return nil
                }
                if let endedEarly {
                    continuation.resume(throwing: endedEarly)
                    return
                }
                let ticket = deadline.map {
                    DeadlineWatch.shared.arm(at: $0) { [self] in fail(DeadlineExceeded(), sparingStreamedBody: true) }
                }
                let task = start(self)
                let stored = state.withLock { state -> Stored in
                    if case .failure(let error)? = state.end { return Stored(failure: error, unusedDeadline: ticket) }
                    state.task = task
                    // A streamed answer's deadline is over once its head has arrived.
                    if state.headOnlyDeadline, state.headArrived { return Stored(failure: nil, unusedDeadline: ticket) }
                    state.deadline = ticket
                    return Stored(failure: nil, unusedDeadline: nil)
                }
                if let unused = stored.unusedDeadline { DeadlineWatch.shared.disarm(unused) }
                // Failed before the task was known: cancelled, or past the deadline already.
                if let failure = stored.failure { task.fail(reason: failure) }
                task.futureResult.whenComplete { [self] result in finish(result) }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// What storing the task found.
    private struct Stored {
        let failure: (any Error)?
        let unusedDeadline: DeadlineWatch.Ticket?
    }

    /// Ends the request with `error`, from any thread: whoever waits is told, the chunks not yet
    /// taken are dropped, and AsyncHTTPClient stops the request. Does nothing once it has ended,
    /// nor, when `sparingStreamedBody` (the deadline's action, which the watch may run just after
    /// the head disarmed it), once a streamed answer's head has arrived.
    func fail(_ error: any Error, sparingStreamedBody: Bool = false) {
        end(.failure(error), dropsChunks: true, sparingStreamedBody: sparingStreamedBody)?.task?.fail(reason: error)
    }

    /// The end AsyncHTTPClient reports, once the request is over. The chunks that arrived before
    /// a failure (a connection cut midway) are still read, then the failure: a live stream keeps
    /// the events it was sent before the cut.
    private func finish(_ result: Result<Void, any Error>) {
        _ = end(result, dropsChunks: false)
    }

    /// What ending found waiting.
    private struct Ending {
        let head: CheckedContinuation<HTTPResponseHead, any Error>?
        let deadline: DeadlineWatch.Ticket?
        let task: HTTPClient.Task<Void>?
    }

    /// Records the end, once, and wakes whoever waits; `nil` when it had already ended.
    private func end(_ result: Result<Void, any Error>, dropsChunks: Bool, sparingStreamedBody: Bool = false) -> Ending? {
        let ending = state.withLock { state -> Ending? in
            guard state.end == nil, !(sparingStreamedBody && state.headOnlyDeadline && state.headArrived) else { return nil }
            state.end = result
            // Forgotten here: a body kept after the end would otherwise keep the task, and with
            // it the HTTPClient.
            defer {
                state.head = nil
                state.deadline = nil
                state.task = nil
            }
            return Ending(head: state.head, deadline: state.deadline, task: state.task)
        }
        guard let ending else { return nil }
        if let deadline = ending.deadline { DeadlineWatch.shared.disarm(deadline) }
        // Ended well without a head: not something AsyncHTTPClient does, and no answer either way.
        ending.head?.resume(with: result.flatMap { .failure(HTTPClientError.remoteConnectionClosed) })
        pipe.finish(result, dropsChunks: dropsChunks)
        return ending
    }

    // MARK: - AsyncHTTPClient's side, on its event loop

    func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        state.withLock { $0.visits += 1 }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let arrival = state.withLock { state in
            state.headArrived = true
            defer {
                state.head = nil
                if state.headOnlyDeadline { state.deadline = nil }
            }
            return Arrival(
                head: state.head, followedRedirect: state.visits > 1, endedDeadline: state.headOnlyDeadline ? state.deadline : nil)
        }
        if let deadline = arrival.endedDeadline { DeadlineWatch.shared.disarm(deadline) }
        if arrival.followedRedirect {
            // A client that followed redirects itself has bypassed the RedirectPolicy (and may
            // have sent credentials to another origin): say so rather than hide it.
            arrival.head?.resume(throwing: NetworkError.invalidRequest(reason: Self.followedRedirect))
            fail(CancellationError())
        } else {
            arrival.head?.resume(returning: head)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// What the head found waiting.
    private struct Arrival {
        let head: CheckedContinuation<HTTPResponseHead, any Error>?
        let followedRedirect: Bool
        /// A streamed answer's deadline, over now.
        let endedDeadline: DeadlineWatch.Ticket?
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        switch pipe.append(Data(buffer.readableBytesView)) {
        case .taken, .ended, .failed:
            return task.eventLoop.makeSucceededVoidFuture()
        case .full:
            let room = task.eventLoop.makePromise(of: Void.self)
            pipe.waitForRoom(room)
            return room.futureResult
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}

    // MARK: - The reader's side

    /// The reader stopped before the end: the request ends too.
    func stop(_ error: any Error) {
        fail(error)
    }

    /// The body's errors as ``/NetworkingKit/NetworkError``s that name the request.
    func readerError(for error: any Error) -> any Error {
        AsyncHTTPClientErrorMapping.networkError(for: error, phase: .body, request: request)
    }

    /// The body's chunks; read once. When the last holder lets go before the end, the request is
    /// cancelled.
    var chunks: BodyChunks {
        BodyReader(pipe, producer: self, idleLimit: idleTimeout.map { BodyReader.IdleLimit($0, error: DeadlineExceeded()) }).chunks
    }
}

extension EventLoopPromise: BodyRoom where Value == Void {
    func open() { succeed(()) }
}
#endif
