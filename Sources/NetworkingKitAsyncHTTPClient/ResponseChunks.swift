#if AsyncHTTPClientTransport || DemoAPI
import AsyncHTTPClient
import Foundation
import NetworkingKit
import NIOCore

/// An AsyncHTTPClient response body as chunks of `Data`, read within the request's deadline, with
/// errors mapped to ``/NetworkingKit/NetworkError``.
///
/// AsyncHTTPClient's own deadline ends with the response head. Past it, a body with a deadline is
/// read through a ``BodyPump``: one task per request, gone when the body ends, with its deadline
/// in the process's ``/NetworkingKit/DeadlineWatch`` (a task and a sleeping child per chunk left
/// their sleeps scheduled until the deadline, and the process grew with the request count; an
/// event-loop timer per request cost two cross-thread wakeups of the loop).
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPClientResponse.Body
    let deadline: ContinuousClock.Instant?
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
        guard let deadline else {
            return AsyncIterator(source: .direct(body.makeAsyncIterator()), request: request)
        }
        return AsyncIterator(
            source: .pumped(BodyPump.Reader(BodyPump(body: body, deadline: deadline))),
            request: request)
    }
}

/// Reads an AsyncHTTPClient body in a task of its own and hands it over in chunks, so that a
/// deadline can end the read (and the request) without cancelling the reader's task.
///
/// The task reads up to ``readAhead`` bytes ahead of the reader, then waits for it, so
/// AsyncHTTPClient's backpressure still reaches the server. Where the language has it, the task
/// starts on the reader's thread (`Task.immediate`) and runs there until it has to wait: a small
/// answer that has already arrived is then read whole, its end included, before the reader asks,
/// and it costs no thread handoff at all (a task started on the pool, holding one chunk at a time,
/// cost three: the start, the reader giving room back, and the end handed over).
final class BodyPump: Sendable {
    /// How many bytes the task reads ahead of the reader before it waits.
    static let readAhead = 256 * 1024

    /// The reader's end: dropping it (a reader that stops early) stops the pump and the request.
    final class Reader: Sendable {
        let pump: BodyPump

        init(_ pump: BodyPump) {
            self.pump = pump
        }

        deinit {
            pump.finish(.failure(CancellationError()))
        }

        func next() async throws -> ByteBuffer? {
            try await pump.next()
        }
    }

    private struct State {
        var started = false
        /// Chunks read and not yet taken, and their size in bytes.
        var chunks = CircularBuffer<ByteBuffer>()
        var queuedBytes = 0
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<ByteBuffer?, any Error>?
        var room: CheckedContinuation<Void, Never>?
        var task: Task<Void, Never>?
        var ticket: DeadlineWatch.Ticket?
    }

    private let body: HTTPClientResponse.Body
    private let deadline: ContinuousClock.Instant
    private let state = LockedState(State())

    init(body: HTTPClientResponse.Body, deadline: ContinuousClock.Instant) {
        self.body = body
        self.deadline = deadline
    }

    /// The next chunk, `nil` at the end; ``DeadlineExceeded`` once the deadline has passed.
    func next() async throws -> ByteBuffer? {
        startIfNeeded()
        // What is already there is taken without suspending: no continuation and no cancellation
        // handler, which a small answer read ahead whole would otherwise pay for each of its chunks
        // and its end. A cancelled reader goes the long way, and is told so.
        if !Task.isCancelled, let ready = state.withLock({ Self.takeReady(&$0) }) {
            return try Self.hand(ready)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ByteBuffer?, any Error>) in
                let ready = state.withLock { state -> Ready? in
                    if let ready = Self.takeReady(&state) { return ready }
                    state.reader = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(with: Result { try Self.hand(ready) })
                }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// A chunk for the reader, with the pump's room to give back if it waits for some; or the end.
    private enum Ready {
        case chunk(ByteBuffer, CheckedContinuation<Void, Never>?)
        case end(Result<Void, any Error>)
    }

    /// Takes the next chunk, or the end once every chunk is taken (a body that ended well is read
    /// to its last byte; a failure empties the queue).
    private static func takeReady(_ state: inout State) -> Ready? {
        if let chunk = state.chunks.popFirst() {
            state.queuedBytes -= chunk.readableBytes
            guard state.queuedBytes < readAhead else { return .chunk(chunk, nil) }
            defer { state.room = nil }
            return .chunk(chunk, state.room)
        }
        return state.end.map(Ready.end)
    }

    /// What `ready` gives the reader, once the lock is released.
    private static func hand(_ ready: Ready) throws -> ByteBuffer? {
        switch ready {
        case .chunk(let chunk, let room):
            room?.resume()
            return chunk
        case .end(let end):
            try end.get()
            return nil
        }
    }

    private func startIfNeeded() {
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && state.end == nil
        }
        guard start else { return }
        let ticket = DeadlineWatch.shared.arm(at: deadline) { [self] in
            finish(.failure(DeadlineExceeded()))
        }
        let task = Self.startTask { [self, body] in
            do {
                for try await chunk in body {
                    guard await deliver(chunk) else { return }
                }
                finish(.success(()))
            } catch {
                finish(.failure(error))
            }
        }
        let ended = state.withLock { state -> Bool in
            state.task = task
            state.ticket = ticket
            return state.end != nil
        }
        // Ended before the task and deadline were stored: read whole already, or cancelled, or
        // past the deadline.
        if ended {
            task.cancel()
            DeadlineWatch.shared.disarm(ticket)
        }
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

    /// Hands `chunk` to the waiting reader or queues it, waiting for room once ``readAhead`` bytes
    /// are queued; `false` once the body has ended.
    private func deliver(_ chunk: ByteBuffer) async -> Bool {
        enum Step {
            case handed(CheckedContinuation<ByteBuffer?, any Error>)
            case queued
            case full
            case ended
        }
        let step = state.withLock { state -> Step in
            if state.end != nil { return .ended }
            // A waiting reader means an empty queue: the chunk goes straight to it.
            if let reader = state.reader {
                state.reader = nil
                return .handed(reader)
            }
            state.chunks.append(chunk)
            state.queuedBytes += chunk.readableBytes
            return state.queuedBytes < Self.readAhead ? .queued : .full
        }
        switch step {
        case .handed(let reader):
            reader.resume(returning: chunk)
            return true
        case .queued:
            return true
        case .ended:
            return false
        case .full:
            await withCheckedContinuation { (room: CheckedContinuation<Void, Never>) in
                // The reader may have made room, or the body ended, since the chunk was queued.
                let waits = state.withLock { state -> Bool in
                    guard state.end == nil, state.queuedBytes >= Self.readAhead else { return false }
                    state.room = room
                    return true
                }
                if !waits { room.resume() }
            }
            return state.withLock { $0.end == nil }
        }
    }

    /// Ends the body once: wakes whoever waits, cancels the read (so the request) and the deadline.
    /// A failure drops the chunks not yet taken; a success leaves them for the reader.
    func finish(_ end: Result<Void, any Error>) {
        let (reader, room, task, ticket) = state.withLock { state in
            guard state.end == nil else {
                return (
                    CheckedContinuation<ByteBuffer?, any Error>?.none, CheckedContinuation<Void, Never>?.none, Task<Void, Never>?.none,
                    DeadlineWatch.Ticket?.none
                )
            }
            state.end = end
            if case .failure = end {
                state.chunks.removeAll()
                state.queuedBytes = 0
            }
            defer {
                state.reader = nil
                state.room = nil
                state.task = nil
                state.ticket = nil
            }
            return (state.reader, state.room, state.task, state.ticket)
        }
        if let ticket { DeadlineWatch.shared.disarm(ticket) }
        room?.resume()
        if case .failure = end { task?.cancel() }
        switch end {
        case .success: reader?.resume(returning: nil)
        case .failure(let error): reader?.resume(throwing: error)
        }
    }
}

/// The request's deadline passed while its body was being read.
struct DeadlineExceeded: Error {}
#endif
