import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Progress as an `AsyncSequence`: ``ProgressTask`` over downloads and uploads on a stub transport.
@Suite("Progress as a sequence")
struct ProgressTaskTests {
    @Test("a download's progress is monotone, ends at the total, and the sequence ends with the transfer")
    func download() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let data = patternedData(300_000)
        let (client, _) = makeClient { _ in StubResponse(headers: ["Content-Type": "application/octet-stream"], body: HTTPBody(data)) }
        let transfer = client.downloadTask(Request<Data>(path: "/film"), to: folder.url.appendingPathComponent("film.bin"))
        var seen: [TransferProgress] = []
        for await progress in transfer.progress { seen.append(progress) }
        let file = try await transfer.value
        #expect(file.size == 300_000)
        #expect(seen.last == TransferProgress(completed: 300_000, total: 300_000))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
    }

    @Test("a failed transfer ends the sequence too, and value throws its error")
    func failure() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let (client, _) = makeClient { _ in .json(#"{"message":"gone"}"#, status: .notFound) }
        let transfer = client.downloadTask(Request<Data>(path: "/film"), to: folder.url.appendingPathComponent("film.bin"))
        for await _ in transfer.progress {}
        await #expect(throws: NetworkError.httpError(statusCode: 404)) { _ = try await transfer.value }
    }

    /// A download whose body never ends, and a sequence told when its request has been sent.
    private static func neverEndingDownload(into folder: TemporaryFolder) -> (ProgressTask<DownloadedFile>, AsyncStream<Void>) {
        let started = AsyncStream.makeStream(of: Void.self)
        let (client, _) = makeClient { _ in
            started.continuation.yield()
            return StubResponse(
                headers: ["Content-Type": "application/octet-stream"],
                body: HTTPBody(NeverEndingChunks(), length: .unknown, iterationBehavior: .single))
        }
        let transfer = client.downloadTask(Request<Data>(path: "/film"), to: folder.url.appendingPathComponent("film.bin"))
        return (transfer, started.stream)
    }

    @Test("cancel() stops the transfer: value throws cancelled and the sequence ends")
    func cancel() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let (transfer, started) = Self.neverEndingDownload(into: folder)
        for await _ in started { break }
        transfer.cancel()
        for await _ in transfer.progress {}
        await #expect(throws: NetworkError.cancelled) { _ = try await transfer.value }
    }

    @Test("cancelling the task that awaits value cancels the transfer")
    func cancelTheAwaiter() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let (transfer, started) = Self.neverEndingDownload(into: folder)
        let awaiter = Task { try await transfer.value }
        for await _ in started { break }
        awaiter.cancel()
        await #expect(throws: NetworkError.cancelled) { _ = try await awaiter.value }
        for await _ in transfer.progress {}
    }

    @Test("an upload's progress ends with the whole body once the answer is in, and value is the decoded answer")
    func upload() async throws {
        struct Receipt: Decodable, Sendable { let size: Int }
        let body = patternedData(200_000)
        let (client, _) = makeClient { request in .json(#"{"size":\#(request.body?.count ?? -1)}"#) }
        let transfer = client.uploadTask(.data(body), to: Request<Receipt>(path: "/upload", method: .post), as: Receipt.self)
        var last: TransferProgress?
        for await progress in transfer.progress { last = progress }
        #expect(try await transfer.value.value.size == 200_000)
        #expect(last == TransferProgress(completed: 200_000, total: 200_000))
    }
}

/// A body whose chunks never end, until the reader is cancelled.
private struct NeverEndingChunks: AsyncSequence, Sendable {
    typealias Element = Data

    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> Data? {
            try Task.checkCancellation()
            await Task.yield()
            return Data(repeating: 7, count: 1024)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
