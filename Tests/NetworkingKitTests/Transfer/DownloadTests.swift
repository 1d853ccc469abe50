import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file served by a stub transport as a file server would: ranges, `If-Range`, and an answer
/// cut after `cutAt` bytes for requests without `Range`.
struct StubFileServer: Sendable {
    var data: Data
    var etag: String? = "\"v1\""
    var lastModified: String? = nil
    var cutAt: Int? = nil
    var honoursRanges = true
    var date: String? = nil
    /// A 206's ETag, when it should differ from the one `If-Range` matched (a broken server).
    var partialETag: String? = nil
    /// Whether a 206 carries the validators (a server that leaves them off could be sending
    /// another version's bytes).
    var validatorsOnPartial = true

    func answer(_ request: RecordedRequest) -> StubResponse {
        var headers: [String: String] = ["Content-Type": "application/octet-stream"]
        if let etag { headers["ETag"] = etag }
        if let lastModified { headers["Last-Modified"] = lastModified }
        if let date { headers["Date"] = date }
        if honoursRanges, let range = request.header("Range"), range.hasPrefix("bytes="),
            request.header("If-Range") == nil || request.header("If-Range") == etag
                || request.header("If-Range") == lastModified
        {
            let first = Int(range.dropFirst(6).dropLast()) ?? 0
            guard first < data.count else {
                return .status(.init(code: 416), headers: ["Content-Range": "bytes */\(data.count)"])
            }
            headers["Content-Range"] = "bytes \(first)-\(data.count - 1)/\(data.count)"
            if let partialETag { headers["ETag"] = partialETag }
            if !validatorsOnPartial {
                headers["ETag"] = nil
                headers["Last-Modified"] = nil
            }
            return StubResponse(status: .partialContent, headers: headers, body: HTTPBody(data.dropFirst(first)))
        }
        if let cutAt, request.header("Range") == nil {
            return .truncated(data.prefix(cutAt), declaredLength: data.count, headers: headers)
        }
        return StubResponse(status: .ok, headers: headers, body: HTTPBody(data))
    }
}

@Suite("Downloads")
struct DownloadTests {
    let folder: TemporaryFolder
    let destination: URL

    init() throws {
        folder = try TemporaryFolder()
        destination = folder.url.appendingPathComponent("film.bin")
    }

    private func client(_ server: LockedState<StubFileServer>) -> (LiveAPIClient, StubTransport) {
        makeClient { request in server.withLock { $0.answer(request) } }
    }

    @Test("the body lands at the destination whole, with monotone progress ending at the total and no temporary file left")
    func downloads() async throws {
        defer { folder.cleanup() }
        let data = patternedData(300_000)
        let (client, _) = client(LockedState(StubFileServer(data: data)))
        let progress = ProgressRecorder()
        let file = try await client.download(Request<Data>(path: "/film"), to: destination, progress: progress.handler)
        #expect(try Data(contentsOf: destination) == data)
        #expect(file.size == 300_000 && file.resumedFrom == 0 && file.location == destination)
        #expect(progress.isMonotone(endingAt: 300_000))
        #expect(progress.values.count < 10)
        #expect(folder.names == ["film.bin"])
    }

    @Test("a download replaces an existing file only once it is complete; a failed one leaves it untouched")
    func neverPartial() async throws {
        defer { folder.cleanup() }
        try Data("old".utf8).write(to: destination)
        let (client, _) = client(LockedState(StubFileServer(data: patternedData(5000), cutAt: 1000)))
        await #expect(throws: NetworkError.self) {
            _ = try await client.download(Request<Data>(path: "/film"), to: destination)
        }
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(folder.names == ["film.bin"])
        let (missing, _) = makeClient { _ in .json(#"{"message":"gone"}"#, status: .notFound) }
        do {
            _ = try await missing.download(Request<Data>(path: "/film"), to: destination)
            Issue.record("a 404 was saved")
        } catch NetworkError.notFound {}
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(folder.names == ["film.bin"])
    }

    @Test("a resumable download cut midway keeps its bytes; the next call asks for the rest with Range and If-Range")
    func resumes() async throws {
        defer { folder.cleanup() }
        let data = patternedData(200_000)
        let server = LockedState(StubFileServer(data: data, cutAt: 70_000))
        let (client, transport) = client(server)
        do {
            _ = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
            Issue.record("a cut download succeeded")
        } catch NetworkError.transport(let failure) {
            #expect(failure.kind == .truncatedBody)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(folder.names == [".film.bin.nkdownload", ".film.bin.nkdownload.json"])

        let progress = ProgressRecorder()
        let file = try await client.download(
            Request<Data>(path: "/film"), to: destination, resumable: true, progress: progress.handler)
        #expect(try Data(contentsOf: destination) == data)
        #expect(file.resumedFrom == 70_000)
        #expect(file.response.status == .partialContent)
        let resumed = try #require(transport.requests.last)
        #expect(resumed.header("Range") == "bytes=70000-")
        #expect(resumed.header("If-Range") == "\"v1\"")
        #expect(progress.values.first?.completed == 70_000)
        #expect(progress.isMonotone(endingAt: 200_000))
        #expect(folder.names == ["film.bin"])
    }

    @Test("a 200 instead of a 206 starts over and the file is still exact")
    func serverIgnoresRange() async throws {
        defer { folder.cleanup() }
        let data = patternedData(100_000)
        let server = LockedState(StubFileServer(data: data, cutAt: 30_000))
        let (client, _) = client(server)
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        server.withLock { $0.honoursRanges = false }
        let file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 0 && file.response.status == .ok)
        #expect(try Data(contentsOf: destination) == data)
    }

    @Test("a changed file (If-Range no longer matches) is sent whole and replaces the kept bytes")
    func changedValidator() async throws {
        defer { folder.cleanup() }
        let server = LockedState(StubFileServer(data: patternedData(100_000), cutAt: 30_000))
        let (client, _) = client(server)
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        let replaced = patternedData(90_000, salt: 7)
        server.withLock {
            $0.data = replaced
            $0.etag = "\"v2\""
        }
        let file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 0)
        #expect(try Data(contentsOf: destination) == replaced)
    }

    @Test("a 206 for another version, or a 416, starts over in a second exchange")
    func mismatchedPartial() async throws {
        defer { folder.cleanup() }
        let data = patternedData(100_000)
        let server = LockedState(StubFileServer(data: data, cutAt: 30_000))
        let (client, transport) = client(server)
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        server.withLock {
            $0.partialETag = "\"other\""
            $0.cutAt = nil
        }
        var file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 0)
        #expect(try Data(contentsOf: destination) == data)
        #expect(transport.requests.suffix(2).map { $0.header("Range") } == ["bytes=30000-", nil])

        // Kept bytes longer than the file now is: 416, then the whole file.
        server.withLock {
            $0.partialETag = nil
            $0.data = patternedData(20_000)
            $0.cutAt = 25_000
        }
        try patternedData(25_000).write(to: folder.url.appendingPathComponent(".film.bin.nkdownload"))
        try Data(#"{"url":"https://api.example.com/v1/film","validator":"\"v1\""}"#.utf8)
            .write(to: folder.url.appendingPathComponent(".film.bin.nkdownload.json"))
        file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 0)
        #expect(try Data(contentsOf: destination) == patternedData(20_000))
        #expect(transport.requests.suffix(2).map { $0.header("Range") } == ["bytes=25000-", nil])
    }

    @Test(
        "without a strong validator nothing is kept (a weak ETag, a Last-Modified without a Date a minute later); a Last-Modified a minute before the Date is enough"
    )
    func validators() async throws {
        defer { folder.cleanup() }
        let data = patternedData(50_000)
        let server = LockedState(StubFileServer(data: data, etag: "W/\"weak\"", cutAt: 10_000))
        let (client, transport) = client(server)
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(folder.names.isEmpty)

        // A weak tag rules a date out (RFC 9110 §13.1.5), and a date alone is strong only a minute before the answer's Date.
        server.withLock { $0.lastModified = "Sat, 01 Jun 2024 00:00:00 GMT" }
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(folder.names.isEmpty)
        server.withLock { $0.etag = nil }
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(folder.names.isEmpty)
        server.withLock { $0.date = "Sat, 01 Jun 2024 00:00:30 GMT" }
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(folder.names.isEmpty)

        server.withLock { $0.date = "Sat, 01 Jun 2024 00:01:00 GMT" }
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        let file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 10_000)
        #expect(transport.requests.last?.header("If-Range") == "Sat, 01 Jun 2024 00:00:00 GMT")
        #expect(try Data(contentsOf: destination) == data)
    }

    @Test("a 206 that carries no validator is not joined to the kept bytes: the download starts over and is whole")
    func partialWithoutValidator() async throws {
        defer { folder.cleanup() }
        let data = patternedData(40_000)
        let server = LockedState(StubFileServer(data: data, cutAt: 15_000, validatorsOnPartial: false))
        let (client, transport) = client(server)
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        server.withLock { $0.cutAt = nil }
        let file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 0)
        #expect(try Data(contentsOf: destination) == data)
        #expect(transport.requests.suffix(2).map { $0.header("Range") } == ["bytes=15000-", nil])
    }

    @Test("every download asks for Accept-Encoding: identity, so that ranges count the file's own bytes")
    func asksForIdentity() async throws {
        defer { folder.cleanup() }
        let server = LockedState(StubFileServer(data: patternedData(20_000), cutAt: 5_000))
        let (client, transport) = client(server)
        _ = try? await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        server.withLock { $0.cutAt = nil }
        _ = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        _ = try await client.download(TestEndpoint(path: "/film"), to: destination)
        #expect(transport.requests.count == 3)
        #expect(transport.requests.allSatisfy { $0.header("Accept-Encoding") == "identity" })
    }

    @Test("a link planted at the partial file's name is removed, never followed: its target is untouched and the download is whole")
    func plantedLink() async throws {
        defer { folder.cleanup() }
        let data = patternedData(30_000)
        let victim = try folder.file("victim.txt", Data("keep me".utf8))
        let partial = folder.url.appendingPathComponent(".film.bin.nkdownload")
        try FileManager.default.createSymbolicLink(at: partial, withDestinationURL: victim)
        try JSONEncoder().encode(["url": "https://api.example.com/v1/film", "validator": "\"v1\""])
            .write(to: folder.url.appendingPathComponent(".film.bin.nkdownload.json"))
        let (client, transport) = client(LockedState(StubFileServer(data: data)))
        let file = try await client.download(Request<Data>(path: "/film"), to: destination, resumable: true)
        #expect(file.resumedFrom == 0)
        #expect(transport.requests.map { $0.header("Range") } == [nil])
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
        #expect(try Data(contentsOf: destination) == data)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    @Test("the hidden file of a download whose process was killed goes with the next download there; one still being written stays")
    func abandonedFiles() async throws {
        defer { folder.cleanup() }
        let abandoned = try folder.file(".film.bin.1234567.nkdownload", Data("half".utf8))
        let live = try folder.file(".film.bin.7654321.nkdownload", Data("writing".utf8))
        let otherDestination = try folder.file(".other.bin.42.nkdownload", Data("x".utf8))
        // Another download still writes `live`: it holds its lock, as PartialDownload does.
        let writer = try FileHandle(forWritingTo: live)
        defer { try? writer.close() }
        #expect(flock(writer.fileDescriptor, LOCK_EX | LOCK_NB) == 0)

        let (client, _) = client(LockedState(StubFileServer(data: patternedData(1000))))
        _ = try await client.download(Request<Data>(path: "/film"), to: destination)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
        #expect(FileManager.default.fileExists(atPath: otherDestination.path))
    }

    @Test("a destination folder that does not exist is a fileFailed(notWritable), before anything is kept")
    func unwritable() async throws {
        defer { folder.cleanup() }
        let (client, _) = client(LockedState(StubFileServer(data: patternedData(10))))
        let nowhere = folder.url.appendingPathComponent("missing/film.bin")
        do {
            _ = try await client.download(Request<Data>(path: "/film"), to: nowhere)
            Issue.record("wrote into a missing folder")
        } catch NetworkError.fileFailed(let failure) {
            #expect(failure.reason == .notWritable)
            #expect(failure.url == nowhere)
        }
    }

    @Test("an endpoint download sends the endpoint's own headers with the range added")
    func endpointDownload() async throws {
        defer { folder.cleanup() }
        let data = patternedData(40_000)
        let server = LockedState(StubFileServer(data: data, cutAt: 1000))
        let (client, transport) = client(server)
        let endpoint = TestEndpoint(path: "/film", headers: ["X-Token": "t"])
        _ = try? await client.download(endpoint, to: destination, resumable: true)
        _ = try await client.download(endpoint, to: destination, resumable: true)
        let last = try #require(transport.requests.last)
        #expect(last.header("X-Token") == "t")
        #expect(last.header("Range") == "bytes=1000-")
        #expect(last.request.headerFields[values: .range].count == 1)
        #expect(try Data(contentsOf: destination) == data)
    }
}
