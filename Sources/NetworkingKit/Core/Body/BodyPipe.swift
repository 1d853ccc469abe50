package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a producer that has filled a ``BodyPipe`` waits for its reader to make room: an event
/// loop's promise, a continuation.
package protocol BodyRoom: Sendable {
    /// Lets the producer go on.
    func open()
}

extension CheckedContinuation: BodyRoom where T == Void, E == Never {
    package func open() { resume() }
}

/// What produces a body into a ``BodyPipe``: told when its reader first asks (a producer may start
/// only then) and when the reader stops before the end (cancelled, gone, silent for too long), when
/// it must stop too; it names the errors the reader gets.
package protocol BodyProducer: Sendable {
    /// The reader asks for its first chunk.
    func readerStarts()
    /// The reader stopped before the end, for `error`: stop producing (cancel the request).
    func stop(_ error: any Error)
    /// What an error the body ends with becomes for the reader (a transport's mapping).
    func readerError(for error: any Error) -> any Error
}

extension BodyProducer {
    package func readerStarts() {}
    package func readerError(for error: any Error) -> any Error { error }
}

/// One response body between the transport that receives it and the body's one reader: the one
/// queue of every transport, a ``BodyQueueState`` behind a lock, with the file I/O of its spill
/// policy. What is already there is taken without suspending (no continuation, no cancellation
/// handler), which a small answer that arrived with its head would otherwise pay for each chunk.
package final class BodyPipe: Sendable {
    package typealias State = BodyQueueState<CheckedContinuation<Data?, any Error>, any BodyRoom, DeadlineWatch.Ticket>

    /// What the producer does after appending a chunk.
    package enum Arrival: Equatable {
        /// Taken or queued: go on.
        case taken
        /// Queued, and the queue is full: wait for room (``waitForRoom(_:)``).
        case full
        /// The body has ended (failed, abandoned): the chunk was dropped; stop.
        case ended
        /// The chunk could not be kept (a file could not be written): the body ends with that
        /// error after the bytes before it; stop the transfer.
        case failed
    }

    fileprivate let state: LockedState<State>

    /// A pipe that handles a reader falling behind by `overflow`.
    package init(overflow: State.Overflow) {
        state = LockedState(State(overflow: overflow))
    }

    deinit {
        for descriptor in state.withLock({ $0.closeAll() }) { close(descriptor) }
    }

    // MARK: - The producer's side

    /// Hands `chunk` to the waiting reader, or keeps it.
    package func append(_ chunk: Data) -> Arrival {
        enum Step {
            case handOver(CheckedContinuation<Data?, any Error>, DeadlineWatch.Ticket?)
            case arrived(Arrival)
            case failed(State.Ending?)
        }
        let step = state.withLock { state -> Step in
            switch state.append(chunk) {
            case .queued: return .arrived(.taken)
            case .full: return .arrived(.full)
            case .ended: return .arrived(.ended)
            case .handOver(let reader, let ticket): return .handOver(reader, ticket)
            case .spill(let descriptor, let offset):
                // Inside the lock: the reader's truncation of the last file cannot come in between.
                var created: Int32?
                do {
                    let target = try descriptor ?? Self.makeFile()
                    if descriptor == nil { created = target }
                    try Self.write(chunk, to: target, at: offset)
                    state.spilled(chunk.count, into: created)
                    return .arrived(.taken)
                } catch {
                    if let created { close(created) }
                    return .failed(state.spillFailed(error))
                }
            }
        }
        switch step {
        case .handOver(let reader, let ticket):
            if let ticket { DeadlineWatch.shared.disarm(ticket) }
            reader.resume(returning: chunk)
            return .taken
        case .arrived(let arrival):
            return arrival
        case .failed(let ending):
            ending.map(Self.wake)
            return .failed
        }
    }

    /// Keeps `room` until the reader has made some; opens it at once when it already has, or the
    /// body has ended, since the chunk that filled the queue was appended.
    package func waitForRoom(_ room: any BodyRoom) {
        state.withLock { $0.waitForRoom(room) }?.open()
    }

    /// Ends the body once: the reader gets what is unread and then `result`, or, with
    /// `dropsChunks`, `result` at once. `false` when it had already ended.
    @discardableResult
    package func finish(_ result: Result<Void, any Error>, dropsChunks: Bool = false) -> Bool {
        guard let ending = state.withLock({ $0.finish(result, dropsChunks: dropsChunks) }) else { return false }
        Self.wake(ending)
        return true
    }

    /// Whether the body has ended.
    package var hasEnded: Bool {
        state.withLock { $0.end != nil }
    }

    /// Unread bytes held in memory now (for tests).
    package var bytesInMemory: Int {
        state.withLock { $0.memoryBytes }
    }

    /// Files holding unread bytes, or kept for the next (for tests).
    package var fileCount: Int {
        state.withLock { $0.files.count }
    }

    /// The number of the reader's wait in progress, `nil` when it does not wait (for tests).
    package var readerWait: UInt64? {
        state.withLock { $0.reader == nil ? nil : $0.waits }
    }

    /// Tells who waited that the body has ended, once the lock is released.
    fileprivate static func wake(_ ending: State.Ending) {
        if let ticket = ending.disarm { DeadlineWatch.shared.disarm(ticket) }
        ending.room?.open()
        // A waiting reader has taken everything: the end is next.
        ending.reader?.resume(with: ending.result.map { Data?.none })
    }

    // MARK: - Files

    /// A new file in the temporary folder, open for reading and writing, already unlinked, so
    /// nothing is left behind whatever happens to the process.
    private static func makeFile() throws -> Int32 {
        do {
            let (descriptor, path) = try OwnerOnlyFile.createTemporary(prefix: "NetworkingKit-answer")
            unlink(path)
            return descriptor
        } catch {
            throw fileFailure(.notWritable, error)
        }
    }

    private static func write(_ chunk: Data, to descriptor: Int32, at offset: Int64) throws {
        do {
            try OwnerOnlyFile.writeAll(chunk, to: descriptor, at: offset)
        } catch {
            throw fileFailure(.notWritable, error)
        }
    }

    /// Reads bytes the producer has finished writing (a file only grows while it is read), then
    /// closes or empties the file once it has all been read.
    fileprivate func readSpill(_ count: Int, at offset: Int64, from descriptor: Int32) throws -> Data {
        var data = Data(count: count)
        try data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let result = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    throw Self.fileFailure(.notReadable, result < 0 ? OwnerOnlyFile.posixError() : POSIXError(.EIO))
                }
                done += result
            }
        }
        state.withLock { state in
            switch state.spillRead(count) {
            case .none: break
            case .close(let descriptor): close(descriptor)
            case .truncate(let descriptor): _ = ftruncate(descriptor, 0)
            }
        }
        return data
    }

    private static func fileFailure(_ reason: FileFailure.Reason, _ error: any Error) -> NetworkError {
        .fileFailed(FileFailure(url: FileManager.default.temporaryDirectory, reason: reason, underlying: error))
    }
}

/// The one reader of a ``BodyPipe``, and the body's one handle: dropping it before the end (a
/// reader that stops early) ends the body and stops the producer.
package final class BodyReader: Sendable {
    private let pipe: BodyPipe
    private let producer: any BodyProducer
    /// The longest the reader waits for its next chunk, if that is bounded (a streamed answer's
    /// timeout), and the error the body then ends with.
    private let idleLimit: IdleLimit?

    /// How long a reader may wait for its next chunk, and the error the body ends with past it.
    package struct IdleLimit: Sendable {
        let duration: Duration
        let error: any Error

        package init(_ duration: Duration, error: any Error) {
            self.duration = duration
            self.error = error
        }
    }

    /// The reader of `pipe`, whose chunks `producer` produces, waiting at most `idleLimit` for
    /// each (none by default).
    package init(_ pipe: BodyPipe, producer: any BodyProducer, idleLimit: IdleLimit? = nil) {
        self.pipe = pipe
        self.producer = producer
        self.idleLimit = idleLimit
    }

    deinit {
        abandon()
    }

    /// The body's chunks, read once.
    package var chunks: BodyChunks { BodyChunks(reader: self) }

    /// The next chunk, `nil` at the end. A cancelled reader gets a `CancellationError` and reads
    /// no more: a body still coming ends and its producer stops; one that had ended is dropped.
    package func next() async throws -> Data? {
        do {
            return try await read()
        } catch {
            throw producer.readerError(for: error)
        }
    }

    private func read() async throws -> Data? {
        // A cancelled reader reads no more, even of a body that has ended (a download spilled
        // to disk would otherwise be read back whole for nothing).
        if Task.isCancelled {
            abandon()
            throw CancellationError()
        }
        while true {
            let take = pipe.state.withLock { $0.take() }
            let action = take.action
            if take.startsProducer {
                producer.readerStarts()
                // A producer started on this thread may have read a small answer whole already.
                if case .empty = action { continue }
            }
            switch action {
            case .chunk(let chunk, let room):
                room?.open()
                return chunk
            case .readSpill(let descriptor, let offset, let count):
                return try pipe.readSpill(count, at: offset, from: descriptor)
            case .end(let result):
                try result.get()
                return nil
            case .empty:
                break
            }
            let arrived = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                    park(continuation)
                }
            } onCancel: {
                abandon()
            }
            // An empty chunk: bytes went to a file while the reader was about to wait.
            if let arrived, arrived.isEmpty { continue }
            return arrived
        }
    }

    /// Makes the reader wait, with its idle limit armed, unless something came meanwhile.
    private func park(_ continuation: CheckedContinuation<Data?, any Error>) {
        switch pipe.state.withLock({ $0.park(continuation, armsIdleLimit: idleLimit != nil) }) {
        case .ready(.chunk(let chunk, let room)):
            room?.open()
            continuation.resume(returning: chunk)
        case .ready(.end(let result)):
            continuation.resume(with: result.map { Data?.none })
        case .ready(.readSpill), .ready(.empty):
            continuation.resume(returning: Data())
        case .parked(let wait?):
            guard let idleLimit else { return }
            // Armed outside the pipe's lock; a chunk that came in between hands the ticket back.
            let ticket = DeadlineWatch.shared.arm(at: .now + idleLimit.duration) { [pipe, producer] in
                let error = idleLimit.error
                guard let ending = pipe.state.withLock({ $0.idleExpired(wait: wait, error: error) }) else { return }
                BodyPipe.wake(ending)
                producer.stop(error)
            }
            if let unused = pipe.state.withLock({ $0.idleArmed(ticket, wait: wait) }) {
                DeadlineWatch.shared.disarm(unused)
            }
        case .parked(nil):
            break
        }
    }

    /// The reader stops before the end: nothing unread is kept, and a body still coming ends
    /// with a `CancellationError` and its producer stops.
    private func abandon() {
        guard let ending = pipe.state.withLock({ $0.abandon() }) else { return }
        BodyPipe.wake(ending)
        guard case .failure(let error) = ending.result else { return }
        producer.stop(error)
    }
}

/// A ``BodyReader``'s chunks as an `AsyncSequence`, for an ``HTTPBody``.
package struct BodyChunks: AsyncSequence, Sendable {
    package typealias Element = Data
    let reader: BodyReader

    package struct AsyncIterator: AsyncIteratorProtocol {
        let reader: BodyReader

        package mutating func next() async throws -> Data? {
            try await reader.next()
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader)
    }
}
