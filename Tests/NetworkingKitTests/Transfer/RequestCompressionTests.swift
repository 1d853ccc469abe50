import Foundation
import NetworkingKitTesting
import Testing

@testable import NetworkingKit

/// Request compression on a stub transport: headers, formats, what is left alone, replays.
@Suite("Request compression")
struct RequestCompressionTests {
    static func options(_ compression: RequestCompression) -> RequestOptions {
        var options = RequestOptions()
        options.requestCompression = compression
        return options
    }

    @Test("gzip and deflate: the header, the format's magic bytes, no Content-Length of the original")
    func formats() async throws {
        let (client, transport) = makeClient()
        let body = Data(String(repeating: "compress me ", count: 1000).utf8)
        try await client.send(Request<Void>(path: "/a", method: .post, body: .data(body), options: Self.options(.gzip)))
        try await client.send(Request<Void>(path: "/b", method: .post, body: .data(body), options: Self.options(.deflate)))
        let (gzip, deflate) = (transport.requests[0], transport.requests[1])
        #expect(gzip.header("Content-Encoding") == "gzip")
        #expect(gzip.body?.prefix(2) == Data([0x1F, 0x8B]))
        #expect(deflate.header("Content-Encoding") == "deflate")
        #expect(deflate.body?.first == 0x78)  // zlib's header: deflate, 32 KiB window
        #expect((gzip.body?.count ?? .max) < body.count / 10)
        #expect(gzip.header("Content-Type") == "application/octet-stream")
    }

    @Test("a retry compresses a streamed body again, to the same bytes; a body in memory goes compressed with its length")
    func streamedAndReplayed() async throws {
        let data = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let chunks = stride(from: 0, to: data.count, by: 7_000).map { data[$0..<min($0 + 7_000, data.count)] }
        let stream = HTTPBody(ChunkList(chunks: chunks.map { Data($0) }), length: .known(Int64(data.count)), iterationBehavior: .multiple)
        let attempts = Counter()
        let (client, transport) = makeClient(middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .zero), budget: nil)]) { _ in
            attempts.increment()
            return attempts.value == 1 ? .status(.serviceUnavailable) : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/s", method: .put, body: .stream(stream), options: Self.options(.gzip)))
        try await client.send(Request<Void>(path: "/b", method: .put, body: .data(data), options: Self.options(.gzip)))
        #expect(transport.requests.count == 3)
        let first = try #require(transport.requests[0].body)
        #expect(first.prefix(2) == Data([0x1F, 0x8B]) && first.count < data.count / 2)
        #expect(transport.requests[1].body == first)
        #expect(transport.requests[0].header("Content-Encoding") == "gzip")
        let buffered = try #require(transport.requests[2].body)
        #expect(buffered.prefix(2) == Data([0x1F, 0x8B]))
        #expect(buffered.count < data.count / 2)
    }

    @Test("upload progress counts the compressed bytes, whole for a body in memory")
    func progress() async throws {
        let (client, transport) = makeClient()
        let recorder = ProgressRecorder()
        let body = Data(String(repeating: "progress ", count: 5000).utf8)
        _ = try await client.upload(
            .data(body), to: Request<Data>(path: "/u", method: .post, options: Self.options(.gzip)), progress: recorder.handler)
        let sent = try #require(transport.requests.first?.body?.count)
        #expect(recorder.isMonotone(endingAt: Int64(sent)))
    }

    @Test("no body, or a Content-Encoding of the caller's own: sent as it is")
    func leftAlone() async throws {
        let (client, transport) = makeClient()
        try await client.send(Request<Void>(path: "/a", options: Self.options(.gzip)))
        try await client.send(Request<Void>(path: "/empty", method: .post, body: .data(Data()), options: Self.options(.gzip)))
        try await client.send(
            Request<Void>(path: "/b", method: .post, headers: ["Content-Encoding": "br"], body: .text("x"), options: Self.options(.gzip)))
        #expect(transport.requests[0].header("Content-Encoding") == nil)
        #expect(transport.requests[1].header("Content-Encoding") == nil)
        #expect(transport.requests[1].body?.isEmpty != false)
        #expect(transport.requests[2].header("Content-Encoding") == "br")
        #expect(transport.requests[2].bodyText == "x")
    }

    @Test("64 MB through one compressor, chunk by chunk: nothing after the end, and a finished stream says nothing more")
    func longStream() throws {
        let deflate = try #require(Deflate(.gzip))
        let chunk = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var total = 0
        for _ in 0..<1_024 {
            total += try deflate.compress(chunk, finish: false).count
        }
        let trailer = try deflate.compress(Data(), finish: true)
        #expect(trailer.count >= 8)  // gzip's CRC-32 and length at least
        total += trailer.count
        #expect(total > 0 && total < 64 * 1_048_576 / 10)
        #expect(try deflate.compress(chunk, finish: true).isEmpty)
    }
}

/// A replayable stream of fixed chunks.
private struct ChunkList: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<Data>
        mutating func next() async throws -> Data? { rest.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: chunks[...]) }
}
