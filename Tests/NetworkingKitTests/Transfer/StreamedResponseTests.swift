import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Streamed answers and uploads")
struct StreamedResponseTests {
    @Test("bytes() hands the head over at once and the body chunk by chunk, with no size limit unless asked")
    func streams() async throws {
        let pulled = Counter()
        let (client, _) = makeClient(maxResponseBodySize: 10) { _ in
            StubResponse(
                status: .ok, headers: ["Content-Type": "text/plain"],
                body: HTTPBody(
                    CountingChunks(chunkSize: 100, chunkCount: 5, pulled: pulled), length: .unknown,
                    iterationBehavior: .single))
        }
        let answer = try await client.bytes(Request<Data>(path: "/feed"))
        #expect(answer.status == .ok)
        #expect(answer.headerFields[.contentType] == "text/plain")
        var sizes: [Int] = []
        for try await chunk in answer.body { sizes.append(chunk.count) }
        #expect(sizes == [100, 100, 100, 100, 100])

        var limited = Request<Data>(path: "/feed")
        limited.options.maxResponseBodySize = 250
        let capped = try await client.bytes(limited)
        do {
            for try await _ in capped.body {}
            Issue.record("the limit was not applied")
        } catch NetworkError.responseTooLarge(let limit, let request) {
            #expect(limit == 250)
            #expect(request?.url?.path == "/v1/feed")
        }
    }

    @Test("bytes() fails on a non-2xx status with the same error as a decoded call")
    func statusErrors() async throws {
        let (client, _) = makeClient { _ in .json(#"{"message":"No such feed."}"#, status: .notFound) }
        do {
            _ = try await client.bytes(TestEndpoint(path: "/feed"))
            Issue.record("a 404 was streamed")
        } catch NetworkError.notFound(let failure) {
            #expect(failure.serverMessage == "No such feed.")
        }
    }

    @Test("a body cut midway fails the read with truncatedBody naming the request")
    func truncated() async throws {
        let (client, _) = makeClient { _ in .truncated(Data(count: 10), declaredLength: 100) }
        let answer = try await client.bytes(Request<Data>(path: "/feed"))
        do {
            for try await _ in answer.body {}
            Issue.record("a cut body ended quietly")
        } catch NetworkError.transport(let failure) {
            #expect(failure.kind == .truncatedBody)
            #expect(failure.request?.url?.path == "/v1/feed")
        }
    }

    @Test("a streamed answer is not shared by de-duplication nor held by the cache")
    func middlewaresStepAside() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage())
        let (client, transport) = makeClient(middlewares: [RequestDeduplicator(), cache]) { _ in
            StubResponse(status: .ok, headers: ["Cache-Control": "max-age=60"], body: HTTPBody(Data(count: 64)))
        }
        for _ in 0..<2 {
            let answer = try await client.bytes(Request<Data>(path: "/file"))
            var size = 0
            for try await chunk in answer.body { size += chunk.count }
            #expect(size == 64)
        }
        #expect(transport.requests.count == 2)
    }

    @Test("upload(.file) sends the file with its type, reports progress, and a retry of the PUT sends it again")
    func uploadsFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let data = patternedData(500_000)
        let file = try folder.file("poster.png", data)
        let clock = ImmediateClock()
        let (client, transport) = makeClient(
            middlewares: [RetryMiddleware(policy: .default, clock: clock, random: { 0.5 })]
        ) { request in
            request.attempt == 1 ? .status(.serviceUnavailable) : .json(#"{"ok":true}"#)
        }
        let progress = ProgressRecorder()
        let answer = try await client.upload(
            .file(file), to: Request<EmptyResponse>(path: "/posters/7", method: .put), progress: progress.handler)
        #expect(answer.status == .ok)
        #expect(transport.requests.count == 2)
        for request in transport.requests {
            #expect(request.body == data)
            #expect(request.header("Content-Type") == "image/png")
        }
        #expect(progress.isMonotone(endingAt: 500_000))
    }

    @Test("a missing file fails before anything is sent")
    func missingFile() async throws {
        let (client, transport) = makeClient()
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).bin")
        do {
            _ = try await client.upload(.file(missing), to: TestEndpoint(path: "/u", method: .post), as: EmptyResponse.self)
            Issue.record("a missing file was uploaded")
        } catch NetworkError.fileFailed(let failure) {
            #expect(failure.reason == .notFound)
            #expect(failure.url == missing)
            #expect(!failure.description.isEmpty)
        }
        #expect(transport.requests.isEmpty)
        #expect(NetworkError.fileFailed(FileFailure(url: missing, reason: .notFound)).localizedDescription.contains("file"))
    }

    @Test("a multipart upload through an endpoint carries the form's content type and exact length")
    func multipartEndpoint() async throws {
        let (client, transport) = makeClient { _ in .status(.created) }
        var form = MultipartFormData()
        form.append("1", name: "id")
        _ = try await client.upload(.multipart(form), to: TestEndpoint(path: "/u", method: .post), as: EmptyResponse.self)
        let sent = try #require(transport.requests.first)
        #expect(sent.header("Content-Type") == form.contentType)
        #expect(sent.bodyText?.contains("name=\"id\"\r\n\r\n1\r\n") == true)
    }

    @Test("MockAPIClient answers bytes() and download() from a Data stub")
    func mock() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let mock = MockAPIClient()
        mock.stub(.path("/film"), with: Data("frames".utf8))
        let answer = try await mock.bytes(Request<Data>(path: "/film"))
        var received = Data()
        for try await chunk in answer.body { received.append(chunk) }
        #expect(received == Data("frames".utf8))
        let file = try await mock.download(TestEndpoint(path: "/film"), to: folder.url.appendingPathComponent("f"))
        #expect(try Data(contentsOf: file.location) == Data("frames".utf8))
        #expect(mock.calls.map(\.path) == ["/film", "/film"])
    }
}

@Suite("Transfer progress")
struct TransferProgressTests {
    @Test("events come at every 1% of a known total (at least 64 KiB), never decrease, and end at the total")
    func throttled() {
        let log = ProgressRecorder()
        let total: Int64 = 10 * 1024 * 1024
        let reporter = ProgressReporter(total: total, handler: log.handler)
        for _ in 0..<(total / 1024) { reporter.add(1024) }
        reporter.finish()
        reporter.finish()
        #expect(log.values.count <= 101)
        #expect(log.values.count >= 99)
        #expect(log.isMonotone(endingAt: total))
        #expect(log.values.last?.fraction == 1)
    }

    @Test("an unknown total reports every MiB and ends with what was counted as the total")
    func unknownTotal() {
        let log = ProgressRecorder()
        let reporter = ProgressReporter(total: nil, handler: log.handler)
        for _ in 0..<(3 * 1024 + 10) { reporter.add(1024) }
        #expect(log.values.allSatisfy { $0.total == nil && $0.fraction == nil })
        reporter.finish()
        #expect(log.isMonotone(endingAt: 3 * 1024 * 1024 + 10 * 1024))
        #expect(log.values.count == 5)
    }

    @Test("a progress value reads as a person would say it; an empty transfer is complete")
    func description() {
        #expect(TransferProgress(completed: 1, total: 4).description == "1 of 4 bytes (25%)")
        #expect(TransferProgress(completed: 5, total: nil).description == "5 bytes")
        #expect(TransferProgress(completed: 0, total: 0).fraction == 1)
        #expect(TransferProgress(completed: 0, total: 0).isFinished)
    }

    @Test("Content-Range values parse strictly")
    func contentRange() {
        let range = ContentRange("bytes 200-999/1000")
        #expect(range?.first == 200 && range?.last == 999 && range?.completeLength == 1000 && range?.count == 800)
        #expect(ContentRange("bytes 0-9/*")?.completeLength == nil)
        #expect(ContentRange("Bytes 0-0/1") != nil)
        for invalid in ["bytes */1000", "bytes 5-4/10", "bytes 0-10/10", "items 0-1/2", "bytes -1-2/3", "bytes 0-1", "bytes 0x1-2/3", ""] {
            #expect(ContentRange(invalid) == nil, "\(invalid)")
        }
    }
}
