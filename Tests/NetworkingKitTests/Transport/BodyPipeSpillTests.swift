import Foundation
import Testing

@testable import NetworkingKit

/// URLSession's answers wait for a slow reader on disk past a memory limit, since
/// FoundationNetworking cannot slow the transfer down.
@Suite("URLSession answers: bytes past the memory limit wait in a file")
struct BodyPipeSpillTests {
    /// `count` chunks of `size` bytes, each different from the one before.
    private static func chunks(_ count: Int, size: Int) -> [Data] {
        (0..<count).map { index in Data((0..<size).map { UInt8(truncatingIfNeeded: index &* 7 &+ $0) }) }
    }

    /// A pipe that spills past `memoryLimit` as URLSession's answers do, and its one reader,
    /// whose stops (the transfer cancelled) `stops` counts.
    private static func spillingBody(
        memoryLimit: Int, fileSize: Int64 = 64 << 20, stops: Counter = Counter()
    ) -> (pipe: BodyPipe, chunks: BodyChunks) {
        let pipe = BodyPipe(overflow: .spill(memoryLimit: memoryLimit, fileSize: fileSize, readSize: 256 << 10))
        return (pipe, BodyReader(pipe, producer: CountingProducer(stops: stops)).chunks)
    }

    private struct CountingProducer: BodyProducer {
        let stops: Counter
        func stop(_ error: any Error) { stops.increment() }
    }

    private static func readAll(_ chunks: BodyChunks) async throws -> Data {
        var all = Data()
        for try await chunk in chunks { all.append(chunk) }
        return all
    }

    /// The answer files in the temporary folder (none: each is unlinked as soon as it is open).
    private static var answerFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
            .filter { $0.hasPrefix("NetworkingKit-answer-") }
    }

    @Test("a reader far behind: memory holds no more than the limit, the rest waits on disk, and every byte arrives in order")
    func spillsPastTheLimit() async throws {
        let abandoned = Counter()
        let (body, bodyChunks) = Self.spillingBody(memoryLimit: 1_000, stops: abandoned)
        let chunks = Self.chunks(100, size: 100)
        for chunk in chunks { _ = body.append(chunk) }
        #expect(body.bytesInMemory == 1_000)
        #expect(Self.answerFiles.isEmpty)
        body.finish(.success(()))
        #expect(try await Self.readAll(bodyChunks) == chunks.reduce(Data(), +))
        #expect(abandoned.value == 0)
    }

    @Test("a reader that catches up empties the file, and later bytes are kept in memory again")
    func catchingUpReturnsToMemory() async throws {
        let (body, bodyChunks) = Self.spillingBody(memoryLimit: 1_000)
        let chunks = Self.chunks(40, size: 100)
        var iterator = bodyChunks.makeAsyncIterator()
        for chunk in chunks.prefix(30) { _ = body.append(chunk) }
        var read = Data()
        // Ten chunks from memory, then the twenty written to the file.
        while read.count < 3_000, let chunk = try await iterator.next() { read.append(chunk) }
        #expect(read == chunks.prefix(30).reduce(Data(), +))
        for chunk in chunks.suffix(10) { _ = body.append(chunk) }
        #expect(body.bytesInMemory == 1_000)
        body.finish(.success(()))
        while let chunk = try await iterator.next() { read.append(chunk) }
        #expect(read == chunks.reduce(Data(), +))
    }

    @Test("a reader that stays behind: each file is closed once read, so the disk holds about what is unread")
    func filesRotate() async throws {
        let (body, bodyChunks) = Self.spillingBody(memoryLimit: 100, fileSize: 1_000)
        let chunks = Self.chunks(50, size: 100)
        var iterator = bodyChunks.makeAsyncIterator()
        var read = Data()
        for (index, chunk) in chunks.enumerated() {
            _ = body.append(chunk)
            // The reader takes one chunk for every two that come: always behind.
            if index.isMultiple(of: 2), let next = try await iterator.next() { read.append(next) }
            #expect(body.fileCount <= 3)
        }
        body.finish(.success(()))
        while let next = try await iterator.next() { read.append(next) }
        #expect(read == chunks.reduce(Data(), +))
        #expect(body.fileCount <= 1)
    }

    @Test("bytes that come while the reader waits are handed to it; an error comes after the bytes before it")
    func waitingReaderAndErrors() async throws {
        let (body, bodyChunks) = Self.spillingBody(memoryLimit: 1_000)
        let reader = Task { [chunks = bodyChunks] in try await Self.readAll(chunks) }
        let chunks = Self.chunks(30, size: 100)
        for chunk in chunks { _ = body.append(chunk) }
        body.finish(.failure(NetworkError.transport(TransportFailure(kind: .truncatedBody))))
        let result = await reader.result
        guard case .failure(NetworkError.transport(let failure)) = result else {
            Issue.record("expected truncatedBody, got \(result)")
            return
        }
        #expect(failure.kind == .truncatedBody)
        // Bytes that come after the end are dropped.
        _ = body.append(Data("late".utf8))
        #expect(body.bytesInMemory == 0)
    }

    @Test("a reader that stops before the end (its body dropped, or its task cancelled) cancels the transfer, once")
    func abandoning() async throws {
        let dropped = Counter()
        do {
            let (body, bodyChunks) = Self.spillingBody(memoryLimit: 1_000, stops: dropped)
            for chunk in Self.chunks(20, size: 100) { _ = body.append(chunk) }
            _ = bodyChunks
        }
        #expect(dropped.value == 1)

        let cancelled = Counter()
        let (body, bodyChunks) = Self.spillingBody(memoryLimit: 1_000, stops: cancelled)
        let reader = Task { [chunks = bodyChunks] in try await Self.readAll(chunks) }
        await waitUntil { body.readerWait != nil }
        reader.cancel()
        #expect(await reader.result.isCancellation)
        #expect(cancelled.value == 1)
        body.finish(.success(()))
        #expect(cancelled.value == 1)

        let read = Counter()
        let (whole, wholeChunks) = Self.spillingBody(memoryLimit: 1_000, stops: read)
        _ = whole.append(Data("done".utf8))
        whole.finish(.success(()))
        #expect(try await Self.readAll(wholeChunks) == Data("done".utf8))
        #expect(read.value == 0)
    }
}

extension Result {
    fileprivate var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
