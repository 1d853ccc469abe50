import Foundation
import Testing

@testable import NetworkingKit

/// URLSession's answers wait for a slow reader on disk past a memory limit, since
/// FoundationNetworking cannot slow the transfer down.
@Suite("URLSession answers: bytes past the memory limit wait in a file")
struct SpillingBodyTests {
    /// `count` chunks of `size` bytes, each different from the one before.
    private static func chunks(_ count: Int, size: Int) -> [Data] {
        (0..<count).map { index in Data((0..<size).map { UInt8(truncatingIfNeeded: index &* 7 &+ $0) }) }
    }

    private static func readAll(_ chunks: SpillingBody.Chunks) async throws -> Data {
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
        let body = SpillingBody(memoryLimit: 1_000) { abandoned.increment() }
        let chunks = Self.chunks(100, size: 100)
        for chunk in chunks { body.append(chunk) }
        #expect(body.bytesInMemory == 1_000)
        #expect(Self.answerFiles.isEmpty)
        body.finish()
        #expect(try await Self.readAll(body.chunks) == chunks.reduce(Data(), +))
        #expect(abandoned.value == 0)
    }

    @Test("a reader that catches up empties the file, and later bytes are kept in memory again")
    func catchingUpReturnsToMemory() async throws {
        let body = SpillingBody(memoryLimit: 1_000) {}
        let chunks = Self.chunks(40, size: 100)
        var iterator = body.chunks.makeAsyncIterator()
        for chunk in chunks.prefix(30) { body.append(chunk) }
        var read = Data()
        // Ten chunks from memory, then the twenty written to the file.
        while read.count < 3_000, let chunk = try await iterator.next() { read.append(chunk) }
        #expect(read == chunks.prefix(30).reduce(Data(), +))
        for chunk in chunks.suffix(10) { body.append(chunk) }
        #expect(body.bytesInMemory == 1_000)
        body.finish()
        while let chunk = try await iterator.next() { read.append(chunk) }
        #expect(read == chunks.reduce(Data(), +))
    }

    @Test("a reader that stays behind: each file is closed once read, so the disk holds about what is unread")
    func filesRotate() async throws {
        let body = SpillingBody(memoryLimit: 100, fileSize: 1_000) {}
        let chunks = Self.chunks(50, size: 100)
        var iterator = body.chunks.makeAsyncIterator()
        var read = Data()
        for (index, chunk) in chunks.enumerated() {
            body.append(chunk)
            // The reader takes one chunk for every two that come: always behind.
            if index.isMultiple(of: 2), let next = try await iterator.next() { read.append(next) }
            #expect(body.fileCount <= 3)
        }
        body.finish()
        while let next = try await iterator.next() { read.append(next) }
        #expect(read == chunks.reduce(Data(), +))
        #expect(body.fileCount <= 1)
    }

    @Test("bytes that come while the reader waits are handed to it; an error comes after the bytes before it")
    func waitingReaderAndErrors() async throws {
        let body = SpillingBody(memoryLimit: 1_000) {}
        let reader = Task { [chunks = body.chunks] in try await Self.readAll(chunks) }
        let chunks = Self.chunks(30, size: 100)
        for chunk in chunks { body.append(chunk) }
        body.finish(throwing: NetworkError.transport(TransportFailure(kind: .truncatedBody)))
        let result = await reader.result
        guard case .failure(NetworkError.transport(let failure)) = result else {
            Issue.record("expected truncatedBody, got \(result)")
            return
        }
        #expect(failure.kind == .truncatedBody)
        // Bytes that come after the end are dropped.
        body.append(Data("late".utf8))
        #expect(body.bytesInMemory == 0)
    }

    @Test("a reader that stops before the end (its body dropped, or its task cancelled) cancels the transfer, once")
    func abandoning() async throws {
        let dropped = Counter()
        do {
            let body = SpillingBody(memoryLimit: 1_000) { dropped.increment() }
            for chunk in Self.chunks(20, size: 100) { body.append(chunk) }
            _ = body.chunks
        }
        #expect(dropped.value == 1)

        let cancelled = Counter()
        let body = SpillingBody(memoryLimit: 1_000) { cancelled.increment() }
        let reader = Task { [chunks = body.chunks] in try await Self.readAll(chunks) }
        await waitUntil { body.isWaiting }
        reader.cancel()
        #expect(await reader.result.isCancellation)
        #expect(cancelled.value == 1)
        body.finish()
        #expect(cancelled.value == 1)

        let read = Counter()
        let whole = SpillingBody(memoryLimit: 1_000) { read.increment() }
        whole.append(Data("done".utf8))
        whole.finish()
        #expect(try await Self.readAll(whole.chunks) == Data("done".utf8))
        #expect(read.value == 0)
    }
}

extension Result {
    fileprivate var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
