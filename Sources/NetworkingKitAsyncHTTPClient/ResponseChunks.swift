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

/// Reads an AsyncHTTPClient body in a task of its own and hands it over a chunk at a time, so
/// that a deadline can end the read (and the request) without cancelling the reader's task.
///
/// One chunk is held at most: the task reads the next only once the reader has taken the last,
/// so AsyncHTTPClient's backpressure still reaches the server.
final class BodyPump: Sendable {
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
        var chunk: ByteBuffer?
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
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ByteBuffer?, any Error>) in
                enum Step {
                    case chunk(ByteBuffer, CheckedContinuation<Void, Never>?)
                    case end(Result<Void, any Error>)
                    case wait
                }
                let step = state.withLock { state -> Step in
                    if let chunk = state.chunk {
                        state.chunk = nil
                        defer { state.room = nil }
                        return .chunk(chunk, state.room)
                    }
                    if let end = state.end { return .end(end) }
                    state.reader = continuation
                    return .wait
                }
                switch step {
                case .chunk(let chunk, let room):
                    room?.resume()
                    continuation.resume(returning: chunk)
                case .end(.success):
                    continuation.resume(returning: nil)
                case .end(.failure(let error)):
                    continuation.resume(throwing: error)
                case .wait:
                    break
                }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
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
        let task = Task { [self, body] in
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
        // Finished (cancelled, past the deadline) before the task and deadline were stored.
        if ended {
            task.cancel()
            DeadlineWatch.shared.disarm(ticket)
        }
    }

    /// Hands `chunk` to the reader, waiting for room; `false` once the body has ended.
    private func deliver(_ chunk: ByteBuffer) async -> Bool {
        await withCheckedContinuation { (room: CheckedContinuation<Void, Never>) in
            enum Step {
                case handed(CheckedContinuation<ByteBuffer?, any Error>)
                case held
                case ended
            }
            let step = state.withLock { state -> Step in
                if state.end != nil { return .ended }
                if let reader = state.reader {
                    state.reader = nil
                    return .handed(reader)
                }
                state.chunk = chunk
                state.room = room
                return .held
            }
            switch step {
            case .handed(let reader):
                reader.resume(returning: chunk)
                room.resume()
            case .ended:
                room.resume()
            case .held:
                break
            }
        }
        return state.withLock { $0.end == nil }
    }

    /// Ends the body once: wakes whoever waits, cancels the read (so the request) and the deadline.
    func finish(_ end: Result<Void, any Error>) {
        let (reader, room, task, ticket) = state.withLock { state in
            guard state.end == nil else {
                return (
                    CheckedContinuation<ByteBuffer?, any Error>?.none, CheckedContinuation<Void, Never>?.none, Task<Void, Never>?.none,
                    DeadlineWatch.Ticket?.none
                )
            }
            state.end = end
            state.chunk = nil
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
