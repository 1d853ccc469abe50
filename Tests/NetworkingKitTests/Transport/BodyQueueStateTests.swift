import Foundation
import Testing

@testable import NetworkingKit

/// The one queue between a transport and a body's reader, as a plain value: every transition
/// driven by hand, without a task.
@Suite("Body queue state: one queue for every transport, its transitions and actions")
struct BodyQueueStateTests {
    typealias State = BodyQueueState<String, String, Int>
    struct Failure: Error {}

    static func chunk(_ byte: UInt8, count: Int = 10) -> Data { Data(repeating: byte, count: count) }

    /// Takes chunks until the state has none; the first byte of each, and the end it came to.
    static func drain(_ state: inout State) -> (bytes: [UInt8], end: Result<Void, any Error>?) {
        var bytes: [UInt8] = []
        while true {
            switch state.take().action {
            case .chunk(let chunk, _): bytes.append(chunk.first ?? 0)
            case .end(let end): return (bytes, end)
            case .empty, .readSpill: return (bytes, nil)
            }
        }
    }

    @Test("chunks are taken in order, then the end; a second end and a late chunk are refused")
    func order() {
        var state = State(overflow: .backpressure(readAhead: 1_000))
        for byte: UInt8 in 1...3 { #expect(state.append(Self.chunk(byte)).isQueued) }
        #expect(state.memoryBytes == 30)
        #expect(state.finish(.success(()), dropsChunks: false) != nil)
        #expect(state.finish(.failure(Failure()), dropsChunks: true) == nil, "a body ends once")
        #expect(state.append(Self.chunk(9)).isEnded)
        let (bytes, end) = Self.drain(&state)
        #expect(bytes == [1, 2, 3])
        #expect(end.map { (try? $0.get()) != nil } == true)
        #expect(state.memoryBytes == 0)
    }

    @Test("a parked reader is handed the next chunk with its idle limit to disarm, and is no longer kept")
    func handOver() {
        var state = State(overflow: .backpressure(readAhead: 1_000))
        _ = state.take()
        guard case .parked(let wait?) = state.park("reader", armsIdleLimit: true) else {
            Issue.record("the reader should wait")
            return
        }
        #expect(state.idleArmed(7, wait: wait) == nil, "the wait goes on: the limit is kept")
        guard case .handOver(let reader, let ticket) = state.append(Self.chunk(1)) else {
            Issue.record("the chunk should go to the reader")
            return
        }
        #expect(reader == "reader" && ticket == 7)
        #expect(state.reader == nil)
        #expect(state.memoryBytes == 0)
    }

    @Test("past the read-ahead the producer waits, and the first take under it opens its room, once")
    func backpressure() {
        var state = State(overflow: .backpressure(readAhead: 20))
        #expect(state.append(Self.chunk(1)).isQueued)
        #expect(state.append(Self.chunk(2)).isFull)
        #expect(state.waitForRoom("room") == nil, "kept until the reader makes room")
        guard case .chunk(_, let room) = state.take().action else { return #expect(Bool(false)) }
        #expect(room == "room")
        guard case .chunk(_, let again) = state.take().action else { return #expect(Bool(false)) }
        #expect(again == nil, "opened once")
    }

    @Test("a wait for room after the reader made some, or after the end, is let go at once; the end opens a kept one")
    func roomAlreadyMade() {
        var state = State(overflow: .backpressure(readAhead: 10))
        #expect(state.append(Self.chunk(1)).isFull)
        _ = state.take()
        #expect(state.waitForRoom("late") == "late")
        #expect(state.append(Self.chunk(2)).isFull)
        #expect(state.waitForRoom("kept") == nil)
        #expect(state.finish(.success(()), dropsChunks: false)?.room == "kept")
        #expect(state.waitForRoom("after the end") == "after the end")
    }

    @Test("a failure comes after the chunks before it; one that drops them comes at once")
    func failures() {
        var kept = State(overflow: .backpressure(readAhead: 100))
        _ = kept.append(Self.chunk(1))
        _ = kept.finish(.failure(Failure()), dropsChunks: false)
        let (keptBytes, keptEnd) = Self.drain(&kept)
        #expect(keptBytes == [1])
        #expect(keptEnd.map { (try? $0.get()) == nil } == true)

        var dropped = State(overflow: .backpressure(readAhead: 100))
        _ = dropped.append(Self.chunk(1))
        _ = dropped.finish(.failure(Failure()), dropsChunks: true)
        #expect(Self.drain(&dropped).bytes.isEmpty)
    }

    @Test(
        "the idle limit of a wait that a chunk ended is handed back to disarm, and its expiry ends nothing; the current wait's ends the body"
    )
    func idleLimits() {
        var state = State(overflow: .backpressure(readAhead: 100))
        guard case .parked(let first?) = state.park("first", armsIdleLimit: true) else { return #expect(Bool(false)) }
        _ = state.append(Self.chunk(1))
        #expect(state.idleArmed(1, wait: first) == 1, "armed after its chunk came: disarm it")
        #expect(state.idleExpired(wait: first, error: Failure()) == nil)
        #expect(state.end == nil)
        guard case .parked(let second?) = state.park("second", armsIdleLimit: true) else { return #expect(Bool(false)) }
        #expect(second != first)
        #expect(state.idleArmed(2, wait: second) == nil)
        let ending = state.idleExpired(wait: second, error: Failure())
        #expect(ending?.reader == "second" && ending?.disarm == 2)
        #expect(state.end != nil)
    }

    @Test("a reader that parks while a chunk is there takes it instead; without an idle limit nothing is armed")
    func parkFindsAChunk() {
        var state = State(overflow: .backpressure(readAhead: 100))
        _ = state.append(Self.chunk(4))
        guard case .ready(.chunk(let chunk, _)) = state.park("reader", armsIdleLimit: true) else { return #expect(Bool(false)) }
        #expect(chunk.first == 4)
        #expect(state.reader == nil && state.waits == 0)
        guard case .parked(nil) = state.park("reader", armsIdleLimit: false) else { return #expect(Bool(false)) }
    }

    @Test("the producer is started by the first take only")
    func lazyStart() {
        var state = State(overflow: .backpressure(readAhead: 100))
        #expect(state.take().startsProducer)
        #expect(!state.take().startsProducer)
    }

    @Test("past the memory limit chunks go to a file, a new one at each file size; memory comes first when read")
    func spill() {
        var state = State(overflow: .spill(memoryLimit: 20, fileSize: 25, readSize: 8))
        #expect(state.append(Self.chunk(1)).isQueued)
        #expect(state.append(Self.chunk(2)).isQueued)
        guard case .spill(nil, 0) = state.append(Self.chunk(3)) else { return #expect(Bool(false)) }
        state.spilled(10, into: 40)
        // While spilling, chunks go to the file even if memory has room: order is kept.
        guard case .spill(40?, 10) = state.append(Self.chunk(4, count: 20)) else { return #expect(Bool(false)) }
        state.spilled(20, into: nil)
        guard case .spill(nil, 0) = state.append(Self.chunk(5)) else { return #expect(Bool(false)) }
        state.spilled(10, into: 41)
        #expect(state.files.map(\.descriptor) == [40, 41])
        #expect(Self.drain(&state).bytes == [1, 2])
        guard case .readSpill(40, 0, 8) = state.take().action else { return #expect(Bool(false)) }
        #expect(state.spillRead(8) == .none)
        guard case .readSpill(40, 8, 8) = state.take().action else { return #expect(Bool(false)) }
        #expect(state.spillRead(8) == .none)
        guard case .readSpill(40, 16, 8) = state.take().action else { return #expect(Bool(false)) }
        #expect(state.spillRead(8) == .none)
        guard case .readSpill(40, 24, 6) = state.take().action else { return #expect(Bool(false)) }
        #expect(state.spillRead(6) == .close(40), "a file read whole is closed")
        guard case .readSpill(41, 0, 8) = state.take().action else { return #expect(Bool(false)) }
        #expect(state.spillRead(8) == .none)
        guard case .readSpill(41, 8, 2) = state.take().action else { return #expect(Bool(false)) }
        #expect(state.spillRead(2) == .truncate(41), "the last file is emptied once the reader catches up")
        #expect(state.append(Self.chunk(6)).isQueued, "and later chunks are kept in memory again")
    }

    @Test("a file that cannot be written ends the body after the bytes before it")
    func spillFailure() {
        var state = State(overflow: .spill(memoryLimit: 10, fileSize: 100, readSize: 8))
        _ = state.append(Self.chunk(1))
        guard case .spill = state.append(Self.chunk(2)) else { return #expect(Bool(false)) }
        #expect(state.spillFailed(Failure()) != nil)
        let (bytes, end) = Self.drain(&state)
        #expect(bytes == [1])
        #expect(end.map { (try? $0.get()) == nil } == true)
    }

    @Test("an end that drops the chunks drops the files' bytes too; every open file is closed once, at the end")
    func dropAndClose() {
        var state = State(overflow: .spill(memoryLimit: 10, fileSize: 100, readSize: 8))
        _ = state.append(Self.chunk(1))
        _ = state.append(Self.chunk(2))
        state.spilled(10, into: 50)
        _ = state.finish(.failure(CancellationError()), dropsChunks: true)
        let (bytes, end) = Self.drain(&state)
        #expect(bytes.isEmpty && end != nil)
        #expect(state.closeAll() == [50])
        #expect(state.closeAll().isEmpty)
    }

    @Test(
        "a reader that abandons a body still coming ends it, once; one that abandons an ended body drops what is unread, spilled bytes too")
    func abandon() {
        var running = State(overflow: .backpressure(readAhead: 100))
        _ = running.append(Self.chunk(1))
        #expect(running.abandon() != nil)
        #expect(running.abandon() == nil)

        var ended = State(overflow: .spill(memoryLimit: 10, fileSize: 100, readSize: 8))
        _ = ended.append(Self.chunk(1))
        _ = ended.append(Self.chunk(2))
        ended.spilled(10, into: 60)
        _ = ended.finish(.success(()), dropsChunks: false)
        #expect(ended.abandon() == nil, "nothing to stop")
        #expect(ended.memoryBytes == 0)
        guard case .end = ended.take().action else { return #expect(Bool(false)) }
        #expect(ended.closeAll() == [60])
    }

    @Test("ten thousand chunks taken between appends keep their order and their count")
    func longRun() {
        var state = State(overflow: .backpressure(readAhead: .max))
        var taken: [UInt8] = []
        for index in 0..<10_000 {
            _ = state.append(Self.chunk(UInt8(truncatingIfNeeded: index), count: 1))
            if index.isMultiple(of: 3), case .chunk(let chunk, _) = state.take().action { taken.append(chunk[0]) }
        }
        _ = state.finish(.success(()), dropsChunks: false)
        taken += Self.drain(&state).bytes
        #expect(taken == (0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
    }
}

extension BodyQueueState.AppendAction {
    fileprivate var isQueued: Bool { if case .queued = self { true } else { false } }
    fileprivate var isFull: Bool { if case .full = self { true } else { false } }
    fileprivate var isEnded: Bool { if case .ended = self { true } else { false } }
}
