import Foundation
import NIOCore
@_spi(Transport) import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// The queue between AsyncHTTPClient and a body's reader, in both of the transport's ways of
/// reading (a delegate for requests without a body, a task for the rest).
@Suite("AsyncHTTPClient transport: the chunk queue between the producer and the reader")
struct ChunkQueueTests {
    /// A producer's wait for room, which records that it was let go.
    final class Room: ChunkQueueRoom {
        private let opened = LockedState(0)
        var openings: Int { opened.withLock { $0 } }
        func open() { opened.withLock { $0 += 1 } }
    }

    struct Failure: Error, Equatable {}

    static func chunk(_ byte: UInt8, count: Int) -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](repeating: byte, count: count))
    }

    @Test("chunks are read in order, then the end; a chunk appended after the end is dropped and stops the producer")
    func order() async throws {
        let queue = ChunkQueue<Room>()
        for byte: UInt8 in 1...3 { #expect(queue.append(Self.chunk(byte, count: 10)) == .taken) }
        #expect(queue.finish(.success(()), dropsChunks: false))
        #expect(!queue.finish(.failure(Failure()), dropsChunks: true), "a body ends once")
        #expect(queue.append(Self.chunk(9, count: 1)) == .ended)
        var read: [UInt8] = []
        while let chunk = try await queue.next(onCancel: {}) { read.append(chunk.readableBytesView.first ?? 0) }
        #expect(read == [1, 2, 3])
    }

    @Test("past the read-ahead the producer waits for room, which the reader makes by taking chunks")
    func backpressure() async throws {
        let queue = ChunkQueue<Room>()
        let half = ChunkQueue<Room>.readAhead / 2
        #expect(queue.append(Self.chunk(1, count: half)) == .taken)
        #expect(queue.append(Self.chunk(2, count: half)) == .full)
        let room = Room()
        queue.waitForRoom(room)
        #expect(room.openings == 0, "nothing was read yet")
        _ = try await queue.next(onCancel: {})
        #expect(room.openings == 1, "the queue fell under the read-ahead")
        _ = try await queue.next(onCancel: {})
        #expect(room.openings == 1, "opened once")
    }

    @Test("a wait for room that comes after the reader made some, or after the end, is let go at once")
    func roomAlreadyMade() async throws {
        let queue = ChunkQueue<Room>()
        #expect(queue.append(Self.chunk(1, count: ChunkQueue<Room>.readAhead)) == .full)
        _ = try await queue.next(onCancel: {})
        let late = Room()
        queue.waitForRoom(late)
        #expect(late.openings == 1)

        #expect(queue.append(Self.chunk(2, count: ChunkQueue<Room>.readAhead)) == .full)
        queue.finish(.failure(Failure()), dropsChunks: true)
        let afterEnd = Room()
        queue.waitForRoom(afterEnd)
        #expect(afterEnd.openings == 1)
    }

    @Test("the end lets a waiting producer go")
    func endOpensRoom() {
        let queue = ChunkQueue<Room>()
        #expect(queue.append(Self.chunk(1, count: ChunkQueue<Room>.readAhead)) == .full)
        let room = Room()
        queue.waitForRoom(room)
        queue.finish(.success(()), dropsChunks: false)
        #expect(room.openings == 1)
    }

    @Test("a failure from the producer comes after the chunks read before it; one that drops them comes at once")
    func failures() async throws {
        let kept = ChunkQueue<Room>()
        _ = kept.append(Self.chunk(1, count: 4))
        kept.finish(.failure(Failure()), dropsChunks: false)
        #expect(try await kept.next(onCancel: {})?.readableBytes == 4)
        await #expect(throws: Failure.self) { _ = try await kept.next(onCancel: {}) }

        let dropped = ChunkQueue<Room>()
        _ = dropped.append(Self.chunk(1, count: 4))
        dropped.finish(.failure(Failure()), dropsChunks: true)
        await #expect(throws: Failure.self) { _ = try await dropped.next(onCancel: {}) }
    }

    @Test("a reader that waits gets the next chunk, and then the end, as they come")
    func waitingReader() async throws {
        let queue = ChunkQueue<Room>()
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let reader = Task {
            starting.yield()
            var read: [Int] = []
            while let chunk = try await queue.next(onCancel: {}) { read.append(chunk.readableBytes) }
            return read
        }
        // Whether the reader is already waiting or not, every chunk reaches it, in order.
        for await _ in started { break }
        _ = queue.append(Self.chunk(1, count: 5))
        _ = queue.append(Self.chunk(2, count: 6))
        queue.finish(.success(()), dropsChunks: false)
        #expect(try await reader.value == [5, 6])
    }

    @Test("a cancelled reader ends the request (onCancel) and is told so, though chunks are waiting")
    func cancelledReader() async throws {
        let queue = ChunkQueue<Room>()
        _ = queue.append(Self.chunk(1, count: 4))
        let cancels = LockedState(0)
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await queue.next {
                cancels.withLock { $0 += 1 }
                queue.finish(.failure(CancellationError()), dropsChunks: true)
            }
        }
        await #expect(throws: CancellationError.self) { _ = try await reader.value }
        #expect(cancels.withLock { $0 } == 1)
    }
}

extension ChunkQueueTests {
    /// Waits (yielding, never sleeping) until `queue`'s reader waits; its wait's number.
    private static func readerWait(_ queue: ChunkQueue<Room>) async -> UInt64 {
        while true {
            if let wait = queue.readerWait { return wait }
            await Task.yield()
        }
    }

    @Test("a reader that waits past its idle limit gets DeadlineExceeded, and the limit's action stops the request")
    func idleLimit() async throws {
        let queue = ChunkQueue<Room>()
        let stopped = LockedState(false)
        // The limit is what is tested: it has only to pass, however busy the machine.
        let idle = IdleLimit(duration: .milliseconds(1)) { stopped.withLock { $0 = true } }
        await #expect(throws: DeadlineExceeded.self) { _ = try await queue.next(idle: idle, onCancel: {}) }
        #expect(stopped.withLock { $0 })
        #expect(queue.hasEnded)
    }

    @Test("an idle limit whose action runs after its reader was handed a chunk ends nothing; the wait in progress it does end")
    func lateIdleLimit() async throws {
        let queue = ChunkQueue<Room>()
        let stops = LockedState(0)
        let idle = IdleLimit(duration: .seconds(3600)) { stops.withLock { $0 += 1 } }
        let reader = Task { try await [queue.next(idle: idle, onCancel: {}), queue.next(idle: idle, onCancel: {})] }

        let first = await Self.readerWait(queue)
        #expect(queue.append(Self.chunk(1, count: 1)) == .taken)
        let second = await Self.readerWait(queue)
        #expect(second != first)
        // The first wait's limit, run by the watch just as its chunk arrived: the body goes on.
        queue.expire(wait: first) { stops.withLock { $0 += 1 } }
        #expect(!queue.hasEnded)
        #expect(stops.withLock { $0 } == 0)
        // The second wait's, while it waits: it ends the body.
        queue.expire(wait: second) { stops.withLock { $0 += 1 } }
        await #expect(throws: DeadlineExceeded.self) { _ = try await reader.value }
        #expect(stops.withLock { $0 } == 1)
        #expect(queue.hasEnded)
    }
}
