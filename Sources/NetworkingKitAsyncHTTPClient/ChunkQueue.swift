#if AsyncHTTPClientTransport || DemoAPI
@_spi(Transport) import NetworkingKit
import NIOCore

/// How long a ``ChunkQueue``'s reader waits for the next chunk: past it, the queue ends the body
/// with ``DeadlineExceeded`` and runs `onExpired`, which stops the request.
struct IdleLimit: Sendable {
    let duration: Duration
    let onExpired: @Sendable () -> Void
}

/// How a producer that has filled a ``ChunkQueue`` waits for the reader to make room.
protocol ChunkQueueRoom: Sendable {
    /// Lets the producer go on.
    func open()
}

extension CheckedContinuation: ChunkQueueRoom where T == Void, E == Never {
    func open() { resume() }
}

extension EventLoopPromise: ChunkQueueRoom where Value == Void {
    func open() { succeed(()) }
}

/// An answer's chunks between the one producer that reads them from AsyncHTTPClient and the one
/// reader of the body, up to ``readAhead`` bytes ahead of the reader: past that, the producer
/// waits for room, so AsyncHTTPClient's backpressure still reaches the server.
///
/// What is already there is taken without suspending: no continuation and no cancellation
/// handler, which a small answer that arrived with its head would otherwise pay for each of its
/// chunks and its end.
///
/// A reader may bound how long it waits for the next chunk (an ``IdleLimit``, a streamed
/// answer's idle timeout): only a reader that waits arms it, so a queue the reader has let fill
/// (its own slowness, not the server's) never counts as silence.
final class ChunkQueue<Room: ChunkQueueRoom>: Sendable {
    /// How many bytes are queued ahead of the reader before the producer waits.
    static var readAhead: Int { 256 * 1024 }

    /// What became of a chunk the producer appended.
    enum Arrival {
        /// Taken or queued: the producer goes on.
        case taken
        /// Queued, and the queue is full: the producer waits for room (``waitForRoom(_:)``).
        case full
        /// The body has ended (failed, abandoned): the chunk was dropped, and the producer stops.
        case ended
    }

    private struct State {
        var chunks = CircularBuffer<ByteBuffer>()
        var queuedBytes = 0
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<ByteBuffer?, any Error>?
        /// The waiting reader's idle limit, disarmed by whoever wakes it.
        var idleTicket: DeadlineWatch.Ticket?
        /// How many times a reader has waited: the wait an idle limit belongs to, so that one the
        /// watch runs just as a chunk arrives cannot end a later wait.
        var waits: UInt64 = 0
        var room: Room?
    }

    private let state = LockedState(State())

    init() {}

    // MARK: - The producer's side

    /// Hands `chunk` to the waiting reader or queues it.
    func append(_ chunk: ByteBuffer) -> Arrival {
        let step = state.withLock { state -> Step in
            if state.end != nil { return .arrived(.ended) }
            // A waiting reader means an empty queue: the chunk goes straight to it.
            if let reader = state.reader {
                state.reader = nil
                defer { state.idleTicket = nil }
                return .handed(reader, state.idleTicket)
            }
            state.chunks.append(chunk)
            state.queuedBytes += chunk.readableBytes
            return .arrived(state.queuedBytes < Self.readAhead ? .taken : .full)
        }
        switch step {
        case .handed(let reader, let idleTicket):
            if let idleTicket { DeadlineWatch.shared.disarm(idleTicket) }
            reader.resume(returning: chunk)
            return .taken
        case .arrived(let arrival):
            return arrival
        }
    }

    private enum Step {
        case handed(CheckedContinuation<ByteBuffer?, any Error>, DeadlineWatch.Ticket?)
        case arrived(Arrival)
    }

    /// Keeps `room` until the reader has made some; opens it at once when the reader already has,
    /// or the body has ended, since the chunk that filled the queue was appended.
    func waitForRoom(_ room: Room) {
        let waits = state.withLock { state -> Bool in
            guard state.end == nil, state.queuedBytes >= Self.readAhead else { return false }
            state.room = room
            return true
        }
        if !waits { room.open() }
    }

    /// Ends the body once: the reader gets the chunks still queued and then `end`, or, with
    /// `dropsChunks`, `end` at once. `false` when it had already ended.
    @discardableResult
    func finish(_ end: Result<Void, any Error>, dropsChunks: Bool) -> Bool {
        let waiting = state.withLock { state -> Waiting? in
            guard state.end == nil else { return nil }
            return Self.end(&state, end, dropsChunks: dropsChunks)
        }
        guard let waiting else { return false }
        Self.wake(waiting, with: end)
        return true
    }

    /// Records the end and takes out who waits for it.
    private static func end(_ state: inout State, _ end: Result<Void, any Error>, dropsChunks: Bool) -> Waiting {
        state.end = end
        if dropsChunks {
            state.chunks.removeAll()
            state.queuedBytes = 0
        }
        defer {
            state.reader = nil
            state.idleTicket = nil
            state.room = nil
        }
        return Waiting(reader: state.reader, idleTicket: state.idleTicket, room: state.room)
    }

    /// Tells who waited that the body has ended, once the lock is released.
    private static func wake(_ waiting: Waiting, with end: Result<Void, any Error>) {
        if let idleTicket = waiting.idleTicket { DeadlineWatch.shared.disarm(idleTicket) }
        waiting.room?.open()
        // A waiting reader means an empty queue: the end is next.
        waiting.reader?.resume(with: end.map { ByteBuffer?.none })
    }

    /// The idle limit of wait number `wait` has passed: if that reader still waits, the body ends
    /// with ``DeadlineExceeded`` and `onExpired` stops the request. Checked and ended under one
    /// lock, so a chunk that arrived first (the watch runs its actions after taking them out, when
    /// a disarm can no longer stop them) keeps the body going.
    func expire(wait: UInt64, then onExpired: @Sendable () -> Void) {
        let end: Result<Void, any Error> = .failure(DeadlineExceeded())
        let waiting = state.withLock { state -> Waiting? in
            guard state.end == nil, state.reader != nil, state.waits == wait else { return nil }
            return Self.end(&state, end, dropsChunks: true)
        }
        guard let waiting else { return }
        Self.wake(waiting, with: end)
        onExpired()
    }

    /// Who waited when the body ended. A struct, not a tuple: the lock's result type is generic,
    /// and a tuple's metadata is looked up at run time.
    private struct Waiting {
        let reader: CheckedContinuation<ByteBuffer?, any Error>?
        let idleTicket: DeadlineWatch.Ticket?
        let room: Room?
    }

    /// Whether the body has ended.
    var hasEnded: Bool {
        state.withLock { $0.end != nil }
    }

    /// The number of the reader's wait in progress, `nil` when it does not wait (for tests).
    var readerWait: UInt64? {
        state.withLock { $0.reader == nil ? nil : $0.waits }
    }

    // MARK: - The reader's side

    /// The next chunk, `nil` at the end. A cancelled reader runs `onCancel` (which ends the
    /// request) and is told so, unless the body had already ended: then it still gets what is
    /// queued, as any reader would. A reader that has to wait longer than `idle` for the next
    /// chunk or the end gets ``DeadlineExceeded``, and the limit's `onExpired` runs.
    func next(idle: IdleLimit? = nil, onCancel: @Sendable () -> Void) async throws -> ByteBuffer? {
        if !Task.isCancelled, let ready = state.withLock({ Self.takeReady(&$0) }) {
            return try Self.hand(ready)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ByteBuffer?, any Error>) in
                let ready = state.withLock { state -> Ready? in
                    if let ready = Self.takeReady(&state) { return ready }
                    state.reader = continuation
                    if let idle {
                        state.waits &+= 1
                        let wait = state.waits
                        // The watch's lock inside this one: the watch never takes this one inside its own.
                        state.idleTicket = DeadlineWatch.shared.arm(at: .now + idle.duration) { [self] in
                            expire(wait: wait, then: idle.onExpired)
                        }
                    }
                    return nil
                }
                if let ready {
                    continuation.resume(with: Result { try Self.hand(ready) })
                }
            }
        } onCancel: {
            onCancel()
        }
    }

    /// A chunk for the reader, with the producer's room to open if it waits for some; or the end.
    private enum Ready {
        case chunk(ByteBuffer, Room?)
        case end(Result<Void, any Error>)
    }

    /// Takes the next chunk, or the end once every chunk is taken.
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
            room?.open()
            return chunk
        case .end(let end):
            try end.get()
            return nil
        }
    }
}
#endif
