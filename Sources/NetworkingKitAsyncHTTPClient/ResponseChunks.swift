#if AsyncHTTPClientTransport || DemoAPI
import AsyncHTTPClient
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore

/// An AsyncHTTPClient response body as chunks of `Data`, read within the request's deadline (or,
/// for a streamed answer, with at most `idleTimeout` between two chunks), with errors mapped to
/// ``/NetworkingKit/NetworkError``.
///
/// The body of a request that had a body (the others go through a ``ResponseReceiver``).
/// AsyncHTTPClient's async deadline ends with the response head. Past it, a body with a deadline
/// or an idle timeout is read through a ``BodyPump``: one task per request, gone when the body ends, with its
/// deadline in the process's ``/NetworkingKit/DeadlineWatch`` (a task and a sleeping child per
/// chunk left their sleeps scheduled until the deadline, and the process grew with the request
/// count; an event-loop timer per request cost two cross-thread wakeups of the loop).
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPClientResponse.Body
    let deadline: ContinuousClock.Instant?
    let idleTimeout: Duration?
    let request: RequestSummary

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate enum Source {
            case direct(HTTPClientResponse.Body.AsyncIterator)
            case pumped(BodyPump.Reader)
        }

        fileprivate var source: Source
        let request: RequestSummary

        mutating func next() async throws -> Data? {
            do {
                let buffer: ByteBuffer?
                switch source {
                case .direct(var iterator):
                    buffer = try await iterator.next()
                    source = .direct(iterator)
                case .pumped(let reader):
                    buffer = try await reader.next()
                }
                return buffer.map { Data($0.readableBytesView) }
            } catch {
                throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .body, request: request)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        guard deadline != nil || idleTimeout != nil else {
            return AsyncIterator(source: .direct(body.makeAsyncIterator()), request: request)
        }
        return AsyncIterator(
            source: .pumped(BodyPump.Reader(BodyPump(body: body, deadline: deadline, idleTimeout: idleTimeout))),
            request: request)
    }
}

/// Reads an AsyncHTTPClient body in a task of its own and hands it over through a
/// ``ChunkQueue``, so that a deadline can end the read (and the request) without cancelling the
/// reader's task. Only a request with a body takes this way (see ``ResponseReceiver`` for why).
///
/// Where the language has it, the task starts on the reader's thread (`Task.immediate`) and runs
/// there until it has to wait: a small answer that has already arrived is then read whole, its
/// end included, before the reader asks, and it costs no thread handoff at all (a task started on
/// the pool, holding one chunk at a time, cost three: the start, the reader giving room back, and
/// the end handed over).
final class BodyPump: Sendable {
    /// The reader's end: dropping it (a reader that stops early) stops the pump and the request.
    final class Reader: Sendable {
        let pump: BodyPump

        init(_ pump: BodyPump) {
            self.pump = pump
        }

        deinit {
            pump.fail(CancellationError())
        }

        func next() async throws -> ByteBuffer? {
            pump.startIfNeeded()
            // The queue ends the body; the pump's task (so the request) is then stopped.
            let idle = pump.idleTimeout.map { IdleLimit(duration: $0) { [pump] in pump.release(cancelling: true) } }
            return try await pump.queue.next(idle: idle) { pump.fail(CancellationError()) }
        }
    }

    private struct State {
        var started = false
        var task: Task<Void, Never>?
        var ticket: DeadlineWatch.Ticket?
    }

    private let body: HTTPClientResponse.Body
    /// The end of the whole exchange, if it has one.
    private let deadline: ContinuousClock.Instant?
    /// The longest the reader waits for its next chunk, if that is bounded.
    fileprivate let idleTimeout: Duration?
    private let queue = ChunkQueue<CheckedContinuation<Void, Never>>()
    private let state = LockedState(State())

    init(body: HTTPClientResponse.Body, deadline: ContinuousClock.Instant?, idleTimeout: Duration?) {
        self.body = body
        self.deadline = deadline
        self.idleTimeout = idleTimeout
    }

    private func startIfNeeded() {
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard start, !queue.hasEnded else { return }
        let ticket = deadline.map {
            DeadlineWatch.shared.arm(at: $0) { [self] in fail(DeadlineExceeded()) }
        }
        let task = Self.startTask { [self, body, queue] in
            do {
                for try await chunk in body {
                    switch queue.append(chunk) {
                    case .taken: continue
                    case .ended: return
                    case .full: await withCheckedContinuation { queue.waitForRoom($0) }
                    }
                }
                end(.success(()), dropsChunks: false)
            } catch {
                // What arrived before a cut is still read, then the error.
                end(.failure(error), dropsChunks: false)
            }
        }
        state.withLock { state in
            state.task = task
            state.ticket = ticket
        }
        // Ended before the task and deadline were stored: read whole already, or cancelled, or
        // past the deadline.
        if queue.hasEnded { release(cancelling: true) }
    }

    /// A task running `operation`: started on the calling thread where the language allows it.
    private static func startTask(_ operation: sending @escaping () async -> Void) -> Task<Void, Never> {
        #if compiler(>=6.2)
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }

    /// Ends the body with `error`, dropping what the reader has not taken, and stops the request.
    func fail(_ error: any Error) {
        end(.failure(error), dropsChunks: true)
    }

    /// Ends the body once, then releases the task and the deadline.
    private func end(_ end: Result<Void, any Error>, dropsChunks: Bool) {
        guard queue.finish(end, dropsChunks: dropsChunks) else { return }
        if case .success = end { release(cancelling: false) } else { release(cancelling: true) }
    }

    /// Disarms the deadline and forgets the task, cancelling it (so the request) when asked.
    private func release(cancelling: Bool) {
        // The state as it was (a struct, not a tuple of its parts: see ChunkQueue.Waiting).
        let held = state.withLock { state in
            defer {
                state.task = nil
                state.ticket = nil
            }
            return state
        }
        if let ticket = held.ticket { DeadlineWatch.shared.disarm(ticket) }
        if cancelling { held.task?.cancel() }
    }
}

/// The request's deadline passed.
struct DeadlineExceeded: Error {}
#endif
