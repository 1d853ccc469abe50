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
            case pumped(BodyReader)
        }

        fileprivate var source: Source
        let request: RequestSummary

        mutating func next() async throws -> Data? {
            do {
                switch source {
                case .direct(var iterator):
                    let buffer = try await iterator.next()
                    source = .direct(iterator)
                    return buffer.map { Data($0.readableBytesView) }
                case .pumped(let reader):
                    return try await reader.next()
                }
            } catch {
                throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .body, request: request)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        guard deadline != nil || idleTimeout != nil else {
            return AsyncIterator(source: .direct(body.makeAsyncIterator()), request: request)
        }
        let pump = BodyPump(body: body, deadline: deadline)
        return AsyncIterator(
            source: .pumped(
                BodyReader(pump.pipe, producer: pump, idleLimit: idleTimeout.map { BodyReader.IdleLimit($0, error: DeadlineExceeded()) })),
            request: request)
    }
}

/// Reads an AsyncHTTPClient body in a task of its own and hands it over through a
/// ``/NetworkingKit/BodyPipe``, so that a deadline can end the read (and the request) without cancelling the
/// reader's task. Only a request with a body takes this way (see ``ResponseReceiver`` for why).
///
/// Where the language has it, the task starts on the reader's thread (`Task.immediate`) and runs
/// there until it has to wait: a small answer that has already arrived is then read whole, its
/// end included, before the reader asks, and it costs no thread handoff at all (a task started on
/// the pool, holding one chunk at a time, cost three: the start, the reader giving room back, and
/// the end handed over).
final class BodyPump: BodyProducer, Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var ticket: DeadlineWatch.Ticket?
    }

    private let body: HTTPClientResponse.Body
    /// The end of the whole exchange, if it has one.
    private let deadline: ContinuousClock.Instant?
    /// The chunks between the pump's task and the body's reader.
    let pipe = BodyPipe(overflow: .backpressure(readAhead: AsyncHTTPClientTransport.readAhead))
    private let state = LockedState(State())

    init(body: HTTPClientResponse.Body, deadline: ContinuousClock.Instant?) {
        self.body = body
        self.deadline = deadline
    }

    /// The reader asks for its first chunk (the pipe says so once): the task starts, unless the
    /// body has already ended (cancelled, or past the deadline).
    func readerStarts() {
        guard !pipe.hasEnded else { return }
        let ticket = deadline.map {
            DeadlineWatch.shared.arm(at: $0) { [self] in fail(DeadlineExceeded()) }
        }
        let task = Self.startTask { [self, body, pipe] in
            do {
                for try await chunk in body {
                    switch pipe.append(Data(chunk.readableBytesView)) {
                    case .taken: continue
                    case .ended, .failed: return
                    case .full: await withCheckedContinuation { pipe.waitForRoom($0) }
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
        if pipe.hasEnded { release(cancelling: true) }
    }

    /// The reader stopped before the end (gone, cancelled, or silent past its idle limit, which
    /// ended the body already): the task, so the request, stops.
    func stop(_ error: any Error) {
        release(cancelling: true)
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
        guard pipe.finish(end, dropsChunks: dropsChunks) else { return }
        if case .success = end { release(cancelling: false) } else { release(cancelling: true) }
    }

    /// Disarms the deadline and forgets the task, cancelling it (so the request) when asked.
    private func release(cancelling: Bool) {
        // The state as it was (a struct, not a tuple of its parts: the lock's result type is
        // generic, and a tuple's metadata is looked up at run time).
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
