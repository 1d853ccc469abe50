import Crypto
import DemoAPI
import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Uploads, multipart forms, downloads and their resumption against DemoAPI, over every
/// transport, checked by SHA-256 digests and the server's own request counts.
///
/// Serialized, and with a generous request timeout: 100 MB transfers over one shared URLSession
/// (whose libcurl work runs on one queue) would otherwise starve each other on a busy machine.
@Suite("Transfers against DemoAPI", .serialized, .timeLimit(.minutes(10)))
struct TransferIntegrationTests {
    struct PartDigest: Decodable, Equatable {
        let name: String?
        let filename: String?
        let filenameStar: String?
        let contentType: String?
        let size: Int64
        let sha256: String
    }

    struct MultipartAnswer: Decodable {
        let size: Int64
        let parts: [PartDigest]
    }

    struct DigestReceipt: Decodable {
        let size: Int64
        let sha256: String
    }

    /// A folder of its own, removed afterwards.
    private static func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nk-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    private static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of `/files/{n}?seed=` at version `version` of its key.
    private static func fileBytes(seed: UInt64, count: Int, version: UInt64 = 0) -> Data {
        splitMix64Bytes(seed: seed &+ version &* 0x1000_0000_0000_0001, count: count)
    }

    private static func form(in folder: URL) throws -> (MultipartFormData, [PartDigest]) {
        let first = patterned(300_000, salt: 1)
        let second = patterned(1_000_000, salt: 2)
        let firstURL = folder.appendingPathComponent("poster.png")
        let secondURL = folder.appendingPathComponent("notes.txt")
        try first.write(to: firstURL)
        try second.write(to: secondURL)
        var form = MultipartFormData()
        form.append("Luxo Jr.", name: "title")
        form.append(Data(#"{"year":1986}"#.utf8), name: "meta", contentType: "application/json")
        try form.append(fileAt: firstURL, name: "poster")
        try form.append(fileAt: secondURL, name: "notes", filename: "résumé \"v2\".txt")
        let expected = [
            PartDigest(
                name: "title", filename: nil, filenameStar: nil, contentType: nil, size: 8,
                sha256: sha256(Data("Luxo Jr.".utf8))),
            PartDigest(
                name: "meta", filename: nil, filenameStar: nil, contentType: "application/json", size: 13,
                sha256: sha256(Data(#"{"year":1986}"#.utf8))),
            PartDigest(
                name: "poster", filename: "poster.png", filenameStar: nil, contentType: "image/png", size: 300_000,
                sha256: sha256(first)),
            PartDigest(
                name: "notes", filename: "résumé %22v2%22.txt", filenameStar: "résumé \"v2\".txt",
                contentType: "text/plain", size: 1_000_000, sha256: sha256(second)),
        ]
        return (form, expected)
    }

    private static func patterned(_ count: Int, salt: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9 &+ Int(salt)) })
    }

    @Test("a multipart form with text, data and two files arrives part by part", arguments: TransportKind.allCases)
    func multipart(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let (form, expected) = try Self.form(in: folder)
                let progress = ProgressRecorder()
                let answer = try await makeClient(server, kind, timeout: .seconds(600)).upload(
                    .multipart(form), to: Request<MultipartAnswer>(path: "/upload/multipart", method: .post),
                    progress: progress.handler)
                #expect(answer.value.parts == expected)
                // The exact Content-Length the form declared is what the server read.
                #expect(try form.makeBody().length == .known(answer.value.size))
                #expect(progress.isMonotone(endingAt: answer.value.size))
            }
        }
    }

    @Test("a 307 and a retry each send the whole form again, files re-read", arguments: TransportKind.allCases)
    func multipartReplayed(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let (form, expected) = try Self.form(in: folder)
                let client = makeClient(server, kind, timeout: .seconds(600))
                let redirected = try await client.upload(
                    .multipart(form),
                    to: Request<MultipartAnswer>(
                        path: "/redirect/307", method: .post, query: [URLQueryItem(name: "to", value: "/upload/multipart")]))
                #expect(redirected.value.parts == expected)
                #expect(server.stats.count("POST /redirect/{code}") == 1)
                #expect(server.stats.count("POST /upload/multipart") == 1)

                let retrying = LiveAPIClient(
                    configuration: .init(
                        baseURL: server.baseURL, transport: kind.transport,
                        middlewares: [RetryMiddleware(policy: RetryPolicy(baseDelay: .milliseconds(1)), budget: nil)],
                        timeout: .seconds(600)))
                let retried = try await retrying.upload(
                    .multipart(form),
                    to: Request<MultipartAnswer>(
                        path: "/upload/multipart", method: .post,
                        query: [URLQueryItem(name: "fail_times", value: "1"), URLQueryItem(name: "key", value: "retry")],
                        headers: ["Idempotency-Key": "form-1"]))
                #expect(retried.value.parts == expected)
                #expect(server.stats.count("POST /upload/multipart") == 3)
            }
        }
    }

    @Test("100 MB down to a file and back up from it, digests equal", arguments: TransportKind.allCases)
    func largeRoundTrip(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let count = 100 * 1024 * 1024
                let client = makeClient(server, kind, timeout: .seconds(600))
                let destination = folder.appendingPathComponent("big.bin")
                let downloadProgress = ProgressRecorder()
                let file = try await client.download(
                    Request<Data>(path: "/files/\(count)", query: [URLQueryItem(name: "seed", value: "7")]),
                    to: destination, progress: downloadProgress.handler)
                #expect(file.size == Int64(count))
                let expected = Self.sha256(Self.fileBytes(seed: 7, count: count))
                #expect(Self.sha256(try Data(contentsOf: destination)) == expected)
                #expect(downloadProgress.isMonotone(endingAt: Int64(count)))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.bin"])

                let uploadProgress = ProgressRecorder()
                let receipt = try await client.upload(
                    .file(destination), to: Request<DigestReceipt>(path: "/upload", method: .put),
                    progress: uploadProgress.handler)
                #expect(receipt.value.size == Int64(count))
                #expect(receipt.value.sha256 == expected)
                #expect(uploadProgress.isMonotone(endingAt: Int64(count)))
            }
        }
    }

    @Test(
        "progress as a sequence: a download's ends at its size, a cut one's sequence ends too, and resumes",
        arguments: TransportKind.allCases)
    func progressSequence(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let count = 2_000_000
                let client = makeClient(server, kind, timeout: .seconds(600))
                let destination = folder.appendingPathComponent("seq.bin")
                let request = Request<Data>(
                    path: "/files/\(count)",
                    query: [URLQueryItem(name: "seed", value: "5"), URLQueryItem(name: "cut_at", value: "500000")])
                let cut = client.downloadTask(request, to: destination, resumable: true)
                for await _ in cut.progress {}
                let error = await networkError { _ = try await cut.value }
                #expect(error?.transportKind == .truncatedBody, "\(String(describing: error))")

                let resumed = client.downloadTask(request, to: destination, resumable: true)
                var seen: [TransferProgress] = []
                for await progress in resumed.progress { seen.append(progress) }
                let file = try await resumed.value
                #expect(file.resumedFrom > 0)
                // Counted from the kept bytes; a reader behind the transfer may miss the first value.
                #expect(seen.allSatisfy { $0.completed >= file.resumedFrom })
                #expect(seen.last == TransferProgress(completed: Int64(count), total: Int64(count)))
                #expect(try Data(contentsOf: destination) == Self.fileBytes(seed: 5, count: count))
            }
        }
    }

    @Test("a download cut midway resumes with Range and gives identical bytes", arguments: TransportKind.allCases)
    func resumesAfterCut(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let count = 3_000_000
                let client = makeClient(server, kind, timeout: .seconds(600))
                let destination = folder.appendingPathComponent("cut.bin")
                let request = Request<Data>(
                    path: "/files/\(count)",
                    query: [URLQueryItem(name: "seed", value: "3"), URLQueryItem(name: "cut_at", value: "1000000")])
                let error = await networkError { _ = try await client.download(request, to: destination, resumable: true) }
                #expect(error?.transportKind == .truncatedBody, "\(String(describing: error))")
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                let file = try await client.download(request, to: destination, resumable: true)
                #expect(file.resumedFrom > 0 && file.resumedFrom <= 1_000_000)
                #expect(file.response.status == .partialContent)
                #expect(try Data(contentsOf: destination) == Self.fileBytes(seed: 3, count: count))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cut.bin"])
                #expect(server.stats.count("GET /files/{n}") == 2)
            }
        }
    }

    @Test("a server that ignores Range, and a file replaced on the server, start over", arguments: TransportKind.allCases)
    func startsOver(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let count = 2_000_000
                let client = makeClient(server, kind, timeout: .seconds(600))
                let destination = folder.appendingPathComponent("f.bin")
                let ignoring = Request<Data>(
                    path: "/files/\(count)",
                    query: [
                        URLQueryItem(name: "seed", value: "4"), URLQueryItem(name: "cut_at", value: "500000"),
                        URLQueryItem(name: "ranges", value: "ignore"),
                    ])
                _ = await networkError { _ = try await client.download(ignoring, to: destination, resumable: true) }
                var file = try await client.download(ignoring, to: destination, resumable: true)
                #expect(file.resumedFrom == 0 && file.response.status == .ok)
                #expect(try Data(contentsOf: destination) == Self.fileBytes(seed: 4, count: count))

                let versioned = Request<Data>(
                    path: "/files/\(count)",
                    query: [
                        URLQueryItem(name: "seed", value: "4"), URLQueryItem(name: "cut_at", value: "500000"),
                        URLQueryItem(name: "key", value: "k"),
                    ])
                _ = await networkError { _ = try await client.download(versioned, to: destination, resumable: true) }
                _ = try await client.send(Request<EmptyResponse>(path: "/files/versions/k", method: .post))
                file = try await client.download(versioned, to: destination, resumable: true)
                #expect(file.resumedFrom == 0 && file.response.status == .ok)
                #expect(try Data(contentsOf: destination) == Self.fileBytes(seed: 4, count: count, version: 1))
            }
        }
    }

    @Test("kept bytes past the end of the file: the server's 416 starts the download over", arguments: TransportKind.allCases)
    func unsatisfiableRangeStartsOver(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let count = 4_000_000
                let client = makeClient(server, kind, timeout: .seconds(600))
                let destination = folder.appendingPathComponent("r.bin")
                let request = Request<Data>(path: "/files/\(count)", query: [URLQueryItem(name: "seed", value: "5")])
                // Interrupted once bytes have landed (in the downloading task), keeping them.
                let interrupted = Task {
                    try await client.download(request, to: destination, resumable: true) { progress in
                        if progress.completed > 0 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                }
                _ = await networkError { _ = try await interrupted.value }
                // The kept bytes grow past the file's end (a file that shrank behind the same validator).
                let partial = try FileHandle(forWritingTo: folder.appendingPathComponent(".r.bin.nkdownload"))
                try partial.seekToEnd()
                try partial.write(contentsOf: Data(repeating: 0, count: count))
                try partial.close()
                let file = try await client.download(request, to: destination, resumable: true)
                #expect(file.resumedFrom == 0 && file.response.status == .ok)
                #expect(try Data(contentsOf: destination) == Self.fileBytes(seed: 5, count: count))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["r.bin"])
                // The interrupted one, the 416, and the whole file.
                #expect(server.stats.count("GET /files/{n}") == 3)
            }
        }
    }

    @Test("cancelling the task mid-upload ends it with cancelled; the same file then goes up whole", arguments: TransportKind.allCases)
    func uploadCancellation(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let data = Self.fileBytes(seed: 12, count: 20_000_000)
                let source = folder.appendingPathComponent("up.bin")
                try data.write(to: source)
                let client = makeClient(server, kind, timeout: .seconds(600))
                let request = Request<DigestReceipt>(path: "/upload", method: .put)
                // Once bytes have gone, the upload's task is cancelled (from URLSession's delegate
                // queue, or from the task itself over AsyncHTTPClient), whichever comes first of
                // the first progress value and the task's handle.
                let trigger = LockedState<(cancel: (@Sendable () -> Void)?, fired: Bool)>((nil, false))
                let upload = Task {
                    try await client.upload(.file(source), to: request) { progress in
                        guard progress.completed > 0 else { return }
                        trigger.withLock { state -> (@Sendable () -> Void)? in
                            state.fired = true
                            return state.cancel
                        }?()
                    }
                }
                if trigger.withLock({ state -> Bool in
                    state.cancel = { upload.cancel() }
                    return state.fired
                }) {
                    upload.cancel()
                }
                let error = await networkError { _ = try await upload.value }
                guard case .cancelled? = error else {
                    Issue.record("expected cancelled, got \(String(describing: error))")
                    return
                }
                let receipt = try await client.upload(.file(source), to: request).value
                #expect(receipt.size == Int64(data.count))
                #expect(receipt.sha256 == Self.sha256(data))
            }
        }
    }

    @Test(
        "cancelling the task mid-download keeps a resumable partial file and nothing at the destination", arguments: TransportKind.allCases)
    func cancellation(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let count = 20_000_000
                let client = makeClient(server, kind, timeout: .seconds(600))
                let destination = folder.appendingPathComponent("c.bin")
                let request = Request<Data>(path: "/files/\(count)", query: [URLQueryItem(name: "seed", value: "9")])
                let download = Task {
                    try await client.download(request, to: destination, resumable: true) { progress in
                        // Called in the downloading task: once bytes have landed, that task is cancelled.
                        if progress.completed > 0 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                }
                let error = await networkError { _ = try await download.value }
                guard case .cancelled? = error else {
                    Issue.record("expected cancelled, got \(String(describing: error))")
                    return
                }
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                #expect(kept == [".c.bin.nkdownload", ".c.bin.nkdownload.json"])
                let file = try await client.download(request, to: destination, resumable: true)
                #expect(file.resumedFrom > 0)
                #expect(try Data(contentsOf: destination) == Self.fileBytes(seed: 9, count: count))
            }
        }
    }

    @Test(
        "a file behind a symbolic link is uploaded whole, as curl sends it, alone or as a multipart part", arguments: TransportKind.allCases
    )
    func symbolicLink(_ kind: TransportKind) async throws {
        try await Self.withFolder { folder in
            try await withDemoServer { server in
                let data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                let file = folder.appendingPathComponent("poster.bin")
                try data.write(to: file)
                let link = folder.appendingPathComponent("link-to-poster.png")
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
                let client = makeClient(server, kind, timeout: .seconds(600))

                let receipt = try await client.upload(.file(link), to: Request<DigestReceipt>(path: "/upload", method: .put))
                #expect(receipt.value.size == 300_000)
                #expect(receipt.value.sha256 == Self.sha256(data))

                var form = MultipartFormData()
                try form.append(fileAt: link, name: "poster")
                let parts = try await client.send(
                    Request<MultipartAnswer>(path: "/upload/multipart", method: .post, body: .multipart(form)))
                #expect(parts.parts.map(\.sha256) == [Self.sha256(data)])
                #expect(parts.parts.first?.filename == "link-to-poster.png")
                #expect(parts.parts.first?.contentType == "image/png")
            }
        }
    }

    @Test("a missing file fails before a byte is sent", arguments: TransportKind.allCases)
    func missingFile(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).bin")
            let error = await networkError {
                _ = try await makeClient(server, kind, timeout: .seconds(600)).upload(
                    .file(missing), to: Request<DigestReceipt>(path: "/upload", method: .put))
            }
            guard case .fileFailed(let failure)? = error else {
                Issue.record("expected fileFailed, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .notFound)
            #expect(server.stats.snapshot.total == 0)
        }
    }

    @Test("a file that grows after the request was made fails the call with changedWhileReading", arguments: TransportKind.allCases)
    func fileThatGrows(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("grows-\(UUID().uuidString).bin")
            try Data(repeating: 7, count: 100_000).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            // Between building the request (which measured the file) and sending it, the file grows.
            let client = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: server.baseURL, transport: kind.transport, middlewares: [GrowFileMiddleware(file: file)],
                    timeout: .seconds(600)))
            let error = await networkError {
                _ = try await client.upload(.file(file), to: Request<DigestReceipt>(path: "/upload", method: .put))
            }
            guard case .fileFailed(let failure)? = error else {
                Issue.record("expected fileFailed, got \(String(describing: error))")
                return
            }
            guard case .changedWhileReading(let expected, let found) = failure.reason else {
                Issue.record("expected changedWhileReading, got \(failure.reason)")
                return
            }
            #expect(expected == 100_000)
            #expect(found > expected)
        }
    }

    @Test("bytes() streams a body far larger than the size limit, chunk by chunk", arguments: TransportKind.allCases)
    func streamsPastLimit(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind, timeout: .seconds(600), maxResponseBodySize: 1024)
            let answer = try await client.bytes(Request<Data>(path: "/files/5000000", query: [URLQueryItem(name: "seed", value: "1")]))
            #expect(answer.headerFields[.acceptRanges] == "bytes")
            var hasher = SHA256()
            var size = 0
            for try await chunk in answer.body {
                hasher.update(data: chunk)
                size += chunk.count
            }
            #expect(size == 5_000_000)
            #expect(hasher.finalize().map { String(format: "%02x", $0) }.joined() == Self.sha256(Self.fileBytes(seed: 1, count: 5_000_000)))
        }
    }
}

/// Appends a few bytes to `file` before the request goes on: a file that changes after the
/// request was built from it.
private struct GrowFileMiddleware: Middleware {
    let file: URL

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 8, count: 10))
        try handle.close()
        return try await next(request, body, context)
    }
}
