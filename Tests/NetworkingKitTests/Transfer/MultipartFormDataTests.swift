import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("MultipartFormData")
struct MultipartFormDataTests {
    @Test("text, data and a file part encode to exactly the RFC 7578 bytes, with an exact length")
    func exactBytes() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = try folder.file("notes.txt", Data("file body".utf8))
        var form = MultipartFormData(boundary: "XyZ")
        form.append("Luxo Jr.", name: "title")
        form.append(Data([0, 1, 2]), name: "raw", filename: "raw.bin")
        try form.append(fileAt: file, name: "notes")
        let body = try form.makeBody()
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nLuxo Jr.\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"raw\"; filename=\"raw.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\u{2}\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"notes.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nfile body\r\n--XyZ--\r\n"
        let bytes = try await body.collect(upTo: 1 << 20)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(body.length == .known(Int64(bytes.count)))
        #expect(form.contentType == "multipart/form-data; boundary=XyZ")
        // Replayable: a second read (a retry, a 307) gives the same bytes, the file read again.
        #expect(body.isReplayable)
        #expect(try await body.collect(upTo: 1 << 20) == bytes)
    }

    @Test("quotes and line breaks in names are escaped; a non-ASCII filename also goes as filename*")
    func escaping() async throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), name: "a\"b\r\nc", filename: "résumé \"final\".pdf", contentType: "application/pdf")
        let text = String(decoding: try await form.makeBody().collect(upTo: 1 << 16), as: UTF8.self)
        #expect(
            text.contains(
                "name=\"a%22b%0D%0Ac\"; filename=\"résumé %22final%22.pdf\"; "
                    + "filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf\r\n"))
        #expect(text.contains("Content-Type: application/pdf\r\n"))
    }

    @Test("a file's content type comes from its extension unless one is given")
    func contentTypes() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let png = try folder.file("poster.PNG", Data([1]))
        let unknown = try folder.file("data.xyz", Data([1]))
        var form = MultipartFormData(boundary: "b")
        try form.append(fileAt: png, name: "a")
        try form.append(fileAt: unknown, name: "b")
        try form.append(fileAt: png, name: "c", filename: "renamed.png", contentType: "image/x-custom")
        let text = String(decoding: try await form.makeBody().collect(upTo: 1 << 16), as: UTF8.self)
        #expect(text.contains("filename=\"poster.PNG\"\r\nContent-Type: image/png\r\n"))
        #expect(text.contains("filename=\"data.xyz\"\r\nContent-Type: application/octet-stream\r\n"))
        #expect(text.contains("filename=\"renamed.png\"\r\nContent-Type: image/x-custom\r\n"))
    }

    @Test("a random boundary found in a part is replaced; a fixed one fails the encoding")
    func boundaryCollision() async throws {
        var form = MultipartFormData()
        let first = form.boundary
        #expect(first.count >= 40)
        form.append("contains --\(first) inside", name: "text")
        #expect(form.boundary != first)
        let body = String(decoding: try await form.makeBody().collect(upTo: 1 << 16), as: UTF8.self)
        #expect(body.hasPrefix("--\(form.boundary)\r\n"))
        #expect(body.hasSuffix("--\(form.boundary)--\r\n"))

        var fixed = MultipartFormData(boundary: "abc")
        fixed.append("x --abc y", name: "text")
        #expect(throws: NetworkError.self) { try fixed.makeBody() }
        do {
            _ = try fixed.makeBody()
        } catch NetworkError.encodingFailed(let reason, _) {
            #expect(reason.contains("boundary"))
        }
    }

    @Test("a missing file fails when it is added, a folder is not a file")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        var form = MultipartFormData()
        let missing = folder.url.appendingPathComponent("nope.txt")
        do {
            try form.append(fileAt: missing, name: "f")
            Issue.record("a missing file was accepted")
        } catch NetworkError.fileFailed(let failure) {
            #expect(failure.reason == .notFound)
            #expect(failure.url == missing)
        }
        do {
            try form.append(fileAt: folder.url, name: "f")
            Issue.record("a folder was accepted")
        } catch NetworkError.fileFailed(let failure) {
            #expect(failure.reason == .notAFile)
        }
        #expect(form.count == 0)
    }

    @Test("a file that grows or shrinks after it was added fails the send with changedWhileReading")
    func fileChangesSize() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = try folder.file("grows.bin", patternedData(1000))
        var form = MultipartFormData(boundary: "b")
        try form.append(fileAt: file, name: "f")
        let body = try form.makeBody()
        try patternedData(1500).write(to: file)
        await #expect(throws: NetworkError.self) { try await body.collect(upTo: 1 << 20) }
        do {
            _ = try await body.collect(upTo: 1 << 20)
        } catch NetworkError.fileFailed(let failure) {
            #expect(failure.reason == .changedWhileReading(expected: 1000, found: 1001))
        }
        try patternedData(10).write(to: file)
        do {
            _ = try await body.collect(upTo: 1 << 20)
            Issue.record("a shrunk file was sent")
        } catch NetworkError.fileFailed(let failure) {
            #expect(failure.reason == .changedWhileReading(expected: 1000, found: 10))
        }
    }

    @Test("a part of unknown length makes the form chunked; a one-shot part makes it one-shot")
    func streamedParts() async throws {
        var form = MultipartFormData(boundary: "b")
        form.append("a", name: "text")
        let stream = HTTPBody(
            CountingChunks(chunkSize: 3, chunkCount: 2, pulled: Counter()), length: .unknown, iterationBehavior: .single)
        form.append(stream, name: "s", filename: "s.bin")
        let body = try form.makeBody()
        #expect(body.length == .unknown)
        #expect(!body.isReplayable)
        let text = String(decoding: try await body.collect(upTo: 1 << 16), as: UTF8.self)
        #expect(text.contains("filename=\"s.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"))
        #expect(text.hasSuffix("\r\n--b--\r\n"))
    }

    @Test("a large file is read in chunks, never whole")
    func chunkedRead() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = try folder.file("big.bin", patternedData(3 * 256 * 1024 + 5))
        var form = MultipartFormData(boundary: "b")
        try form.append(fileAt: file, name: "f")
        var largest = 0
        var total = 0
        for try await chunk in try form.makeBody() {
            largest = max(largest, chunk.count)
            total += chunk.count
        }
        #expect(largest <= 256 * 1024)
        #expect(total > 3 * 256 * 1024)
    }

    @Test(
        "a part's content type with CR LF (one Character in Swift), CR, LF or NUL is encodingFailed and never reaches the wire",
        arguments: ["text/plain\r\nX-Injected: yes", "text/plain\rX-Injected: yes", "text/plain\nX-Injected: yes", "text/plain\0"])
    func contentTypeInjection(contentType: String) async throws {
        var form = MultipartFormData()
        form.append(Data("x".utf8), name: "file", filename: "a.txt", contentType: contentType)
        #expect(throws: NetworkError.self) { try form.makeBody() }

        let (client, transport) = makeClient()
        let error = await networkError {
            try await client.send(Request<Void>(path: "/upload", method: .post, body: .multipart(form)))
        }
        guard case .encodingFailed(let reason, _)? = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("content type"))
        #expect(transport.requests.isEmpty)
    }

    @Test("a fixed boundary with CR LF is encodingFailed")
    func boundaryInjection() {
        var form = MultipartFormData(boundary: "b\r\nX-Injected: yes")
        form.append("v", name: "n")
        #expect(throws: NetworkError.self) { try form.makeBody() }
    }
}
