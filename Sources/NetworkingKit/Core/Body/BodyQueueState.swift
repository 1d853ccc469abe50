package import Foundation

/// The unread part of one response body, between the one producer that receives it (a transport)
/// and the one reader of the body, as a plain value: each transition returns what its owner must
/// do once it has let go of its lock (resume a reader, open a producer's room, disarm a timer).
///
/// Whoever takes a reader or a room out of the state resumes it, and nobody else does
/// (``SingleFlightState``'s rule). ``BodyPipe`` keeps it under a lock for both transports; the
/// tests drive it without a task.
///
/// Past its ``Overflow`` limit the state either makes the producer wait for room (backpressure,
/// where the transport can pause: AsyncHTTPClient) or sends what is unread to files on disk
/// (where it cannot: FoundationNetworking), so that memory stays bounded either way.
package struct BodyQueueState<Reader, Room, Ticket> {
    /// What happens when the reader falls behind.
    package enum Overflow: Sendable, Equatable {
        /// The producer waits for room once `readAhead` bytes are unread.
        case backpressure(readAhead: Int)
        /// Past `memoryLimit` unread bytes, arriving bytes go to files of about `fileSize` bytes
        /// each, read back at most `readSize` bytes at a time.
        case spill(memoryLimit: Int, fileSize: Int64, readSize: Int)
    }

    /// A file holding unread bytes after those in memory.
    package struct SpillFile: Equatable, Sendable {
        package let descriptor: Int32
        /// The bytes written to it so far.
        package var written: Int64 = 0
        /// The bytes the reader has taken from it.
        package var read: Int64 = 0
    }

    let overflow: Overflow
    /// Unread chunks in arrival order, from `head` on (the array is compacted as it is read).
    private var memory: [Data] = []
    private var head = 0
    package private(set) var memoryBytes = 0
    /// Files holding unread bytes after those in memory, oldest first: the reader reads the first,
    /// the producer appends to the last.
    package private(set) var files: [SpillFile] = []
    /// Whether arriving bytes go to a file: from the first that did not fit in memory until the
    /// reader has caught up with the file.
    private var spilling = false
    package private(set) var end: Result<Void, any Error>?
    package private(set) var reader: Reader?
    private var idleTicket: Ticket?
    /// How many times the reader has waited: the wait an idle limit belongs to, so that a limit
    /// that fires just as a chunk arrives cannot end a later wait.
    package private(set) var waits: UInt64 = 0
    private var room: Room?
    /// Whether the producer has been told the reader started (a producer may start lazily).
    private var producerStarted = false

    package init(overflow: Overflow) {
        self.overflow = overflow
    }

    // MARK: - The producer's side

    /// What became of an arriving chunk.
    package enum AppendAction {
        /// Queued: the producer goes on.
        case queued
        /// Queued, and the queue is full: the producer waits for room (``waitForRoom(_:)``).
        case full
        /// The waiting reader takes it: resume it with the chunk, and disarm its idle limit.
        case handOver(Reader, disarm: Ticket?)
        /// It goes to a file: write it there (`descriptor` nil: in a new file), inside the owner's
        /// lock, then report with ``spilled(_:into:)`` or ``spillFailed(_:)``.
        case spill(descriptor: Int32?, at: Int64)
        /// The body has ended (failed, abandoned): the chunk is dropped, and the producer stops.
        case ended
    }

    /// Takes an arriving chunk.
    package mutating func append(_ chunk: Data) -> AppendAction {
        guard end == nil else { return .ended }
        guard !chunk.isEmpty else { return .queued }
        // A waiting reader has taken everything before: this chunk is next.
        if let reader {
            self.reader = nil
            defer { idleTicket = nil }
            return .handOver(reader, disarm: idleTicket)
        }
        switch overflow {
        case .backpressure(let readAhead):
            push(chunk)
            return memoryBytes < readAhead ? .queued : .full
        case .spill(let memoryLimit, let fileSize, _):
            if !spilling, memoryBytes == 0 || memoryBytes + chunk.count <= memoryLimit {
                push(chunk)
                return .queued
            }
            guard let last = files.last, last.written < fileSize else { return .spill(descriptor: nil, at: 0) }
            return .spill(descriptor: last.descriptor, at: last.written)
        }
    }

    /// A chunk of `count` bytes was written where ``append(_:)`` said (`newFile`: the file it was
    /// written to, when it asked for a new one).
    package mutating func spilled(_ count: Int, into newFile: Int32?) {
        if let newFile { files.append(SpillFile(descriptor: newFile)) }
        guard !files.isEmpty else { return }
        files[files.count - 1].written += Int64(count)
        spilling = true
    }

    /// Writing a chunk to a file failed: the body ends with `error` after the bytes before it,
    /// and the producer stops.
    package mutating func spillFailed(_ error: any Error) -> Ending? {
        finish(.failure(error), dropsChunks: false)
    }

    /// Keeps the producer's `room` until the reader has made some; gives it back to open at once
    /// when the reader already has, or the body has ended.
    package mutating func waitForRoom(_ room: Room) -> Room? {
        guard end == nil, case .backpressure(let readAhead) = overflow, memoryBytes >= readAhead else { return room }
        self.room = room
        return nil
    }

    /// Who waited when the body ended: resume the reader with the end, disarm its idle limit,
    /// open the producer's room.
    package struct Ending {
        package let reader: Reader?
        package let disarm: Ticket?
        package let room: Room?
        package let result: Result<Void, any Error>
    }

    /// Ends the body once: the reader gets the chunks still unread and then `result`, or, with
    /// `dropsChunks`, `result` at once. `nil` when it had already ended.
    package mutating func finish(_ result: Result<Void, any Error>, dropsChunks: Bool) -> Ending? {
        guard end == nil else { return nil }
        end = result
        if dropsChunks { dropMemory() }
        defer {
            reader = nil
            idleTicket = nil
            room = nil
        }
        return Ending(reader: reader, disarm: idleTicket, room: room, result: result)
    }

    // MARK: - The reader's side

    /// What the reader does next.
    package enum TakeAction {
        /// Hand the reader this chunk, and open the producer's room if there is one.
        case chunk(Data, openRoom: Room?)
        /// Read `count` bytes at `offset` of the file, then report with ``spillRead(_:)``.
        case readSpill(descriptor: Int32, offset: Int64, count: Int)
        /// The body's end: nothing more after it.
        case end(Result<Void, any Error>)
        /// Nothing yet: wait (``park(_:armsIdleLimit:)``).
        case empty
    }

    /// The reader's next step, and whether the producer starts now (`true` the first time only,
    /// for a producer that starts when the body is read). A struct, not a tuple: the owner's lock
    /// returns it through a generic, and a tuple's metadata is looked up at run time.
    package struct Take {
        package let action: TakeAction
        package let startsProducer: Bool
    }

    /// The reader's next step.
    package mutating func take() -> Take {
        let starts = !producerStarted
        producerStarted = true
        return Take(action: nextAction(), startsProducer: starts)
    }

    private mutating func nextAction() -> TakeAction {
        if head < memory.count {
            let chunk = memory[head]
            memory[head] = Data()
            head += 1
            memoryBytes -= chunk.count
            if head == memory.count || head >= 64 && head * 2 >= memory.count {
                memory.removeFirst(head)
                head = 0
            }
            guard let room, case .backpressure(let readAhead) = overflow, memoryBytes < readAhead else {
                return .chunk(chunk, openRoom: nil)
            }
            self.room = nil
            return .chunk(chunk, openRoom: room)
        }
        if let file = files.first, file.read < file.written, case .spill(_, _, let readSize) = overflow {
            return .readSpill(descriptor: file.descriptor, offset: file.read, count: Int(min(Int64(readSize), file.written - file.read)))
        }
        return end.map(TakeAction.end) ?? .empty
    }

    /// What parking the reader came to.
    package enum ParkAction {
        /// The reader waits; with an idle limit, arm it for wait number `wait` and report with
        /// ``idleArmed(_:wait:)``.
        case parked(wait: UInt64?)
        /// Something came since the reader looked: take this step instead of waiting.
        case ready(TakeAction)
    }

    /// Makes `reader` wait for the next chunk or the end, unless one has come meanwhile.
    package mutating func park(_ reader: Reader, armsIdleLimit: Bool) -> ParkAction {
        let action = nextAction()
        guard case .empty = action else { return .ready(action) }
        precondition(self.reader == nil, "a body pipe has one reader")
        self.reader = reader
        guard armsIdleLimit else { return .parked(wait: nil) }
        waits &+= 1
        return .parked(wait: waits)
    }

    /// The idle limit of wait number `wait` is armed (outside the owner's lock): kept if that
    /// wait goes on; given back to disarm when a chunk or the end came first.
    package mutating func idleArmed(_ ticket: Ticket, wait: UInt64) -> Ticket? {
        guard end == nil, reader != nil, waits == wait else { return ticket }
        idleTicket = ticket
        return nil
    }

    /// The idle limit of wait number `wait` has passed: if that wait goes on, the body ends with
    /// `error` and the producer must stop; `nil` when a chunk or the end came first.
    package mutating func idleExpired(wait: UInt64, error: any Error) -> Ending? {
        guard end == nil, reader != nil, waits == wait else { return nil }
        return finish(.failure(error), dropsChunks: true)
    }

    /// What reading a file came to: close a file the reader has finished, or empty the last one
    /// (arriving bytes are kept in memory again); done inside the owner's lock, so that no write
    /// comes in between.
    package enum SpillReadAction: Equatable {
        case none
        case close(Int32)
        case truncate(Int32)
    }

    /// The reader has taken `count` bytes from the first file.
    package mutating func spillRead(_ count: Int) -> SpillReadAction {
        guard !files.isEmpty else { return .none }
        files[0].read += Int64(count)
        let first = files[0]
        guard first.read == first.written else { return .none }
        if files.count > 1 {
            files.removeFirst()
            return .close(first.descriptor)
        }
        guard spilling else { return .none }
        files[0].read = 0
        files[0].written = 0
        spilling = false
        return .truncate(first.descriptor)
    }

    /// The reader stopped before the end (its task cancelled, or gone): a body still coming ends
    /// with a `CancellationError` and the producer must stop (the ending is returned); a body that
    /// had ended is dropped, since the reader will read no more of it (`nil`). Either way nothing
    /// unread is kept, not even spilled bytes, which a cancelled download would otherwise read
    /// back from the disk for nothing.
    package mutating func abandon() -> Ending? {
        guard end == nil else {
            dropMemory()
            return nil
        }
        return finish(.failure(CancellationError()), dropsChunks: true)
    }

    /// Every file still open, to close when the owner goes.
    package mutating func closeAll() -> [Int32] {
        defer { files = [] }
        return files.map(\.descriptor)
    }

    private mutating func push(_ chunk: Data) {
        memory.append(chunk)
        memoryBytes += chunk.count
    }

    /// Forgets every unread byte: the memory's, and the files' (closed when the owner goes).
    private mutating func dropMemory() {
        memory = []
        head = 0
        memoryBytes = 0
        for index in files.indices { files[index].read = files[index].written }
    }
}

extension BodyQueueState: Sendable where Reader: Sendable, Room: Sendable, Ticket: Sendable {}
