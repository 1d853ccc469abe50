import Foundation
import Testing

@testable @_spi(Transport) import NetworkingKit

/// The one reader of a body pipe, with tasks: waiting, cancellation, the idle limit.
@Suite("Body reader: waiting for chunks, cancellation and the idle limit, over a pipe")
struct BodyReaderTests {
    /// Counts what the reader tells its producer.
    final class Producer: BodyProducer {
        private let counts = LockedState((starts: 0, stops: 0))
        var starts: Int { counts.withLock { $0.starts } }
        var stops: Int { counts.withLock { $0.stops } }
        func readerStarts() { counts.withLock { $0.starts += 1 } }
        func stop(_ error: any Error) { counts.withLock { $0.stops += 1 } }
    }

    struct Silence: Error {}

    static func pipe() -> BodyPipe { BodyPipe(overflow: .backpressure(readAhead: 1 << 20)) }

    @Test("a reader that waits gets the next chunks and then the end, as they come; its producer starts once and is never stopped")
    func waitingReader() async throws {
        let pipe = Self.pipe()
        let producer = Producer()
        let reader = BodyReader(pipe, producer: producer)
        let reading = Task {
            var read: [Int] = []
            while let chunk = try await reader.next() { read.append(chunk.count) }
            return read
        }
        // Whether the reader already waits or not, every chunk reaches it, in order.
        while pipe.readerWait == nil, !pipe.hasEnded { await Task.yield() }
        #expect(pipe.append(Data(count: 5)) == .taken)
        #expect(pipe.append(Data(count: 6)) == .taken)
        pipe.finish(.success(()))
        #expect(try await reading.value == [5, 6])
        #expect(producer.starts == 1)
        #expect(producer.stops == 0)
    }

    @Test("a cancelled reader ends the body and stops the producer, though chunks are waiting")
    func cancelledReader() async throws {
        let pipe = Self.pipe()
        _ = pipe.append(Data(count: 4))
        let producer = Producer()
        let reader = BodyReader(pipe, producer: producer)
        let reading = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await reader.next()
        }
        await #expect(throws: CancellationError.self) { _ = try await reading.value }
        #expect(producer.stops == 1)
        #expect(pipe.hasEnded)
    }

    @Test("a cancelled reader of a body that has already ended reads no more of it, and stops nothing")
    func cancelledAfterTheEnd() async throws {
        let pipe = Self.pipe()
        _ = pipe.append(Data(count: 4))
        pipe.finish(.success(()))
        let producer = Producer()
        let reader = BodyReader(pipe, producer: producer)
        let reading = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await reader.next()
        }
        await #expect(throws: CancellationError.self) { _ = try await reading.value }
        #expect(producer.stops == 0)
        #expect(pipe.bytesInMemory == 0)
    }

    @Test("a reader dropped before the end stops the producer, once")
    func droppedReader() {
        let pipe = Self.pipe()
        let producer = Producer()
        _ = BodyReader(pipe, producer: producer)
        #expect(producer.stops == 1)
        #expect(pipe.hasEnded)
    }

    @Test("a reader that waits past its idle limit gets the limit's error, and the producer is stopped")
    func idleLimit() async throws {
        let pipe = Self.pipe()
        let producer = Producer()
        // The limit is what is tested: it has only to pass, however busy the machine.
        let reader = BodyReader(pipe, producer: producer, idleLimit: BodyReader.IdleLimit(.milliseconds(1), error: Silence()))
        await #expect(throws: Silence.self) { _ = try await reader.next() }
        #expect(producer.stops == 1)
        #expect(pipe.hasEnded)
    }

    @Test("errors reach the reader as its producer names them")
    func mappedErrors() async throws {
        struct Naming: BodyProducer {
            func stop(_ error: any Error) {}
            func readerError(for error: any Error) -> any Error { NetworkError.timeout(nil) }
        }
        let pipe = Self.pipe()
        pipe.finish(.failure(Silence()))
        let reader = BodyReader(pipe, producer: Naming())
        await #expect(throws: NetworkError.self) { _ = try await reader.next() }
    }
}
