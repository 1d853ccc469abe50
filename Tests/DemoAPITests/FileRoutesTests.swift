import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Files: ranges, If-Range, versions; multipart digests")
struct FileRoutesTests {
    @Test("Range values parse as RFC 9110 says, several ranges or another unit are ignored")
    func byteRanges() {
        #expect(ByteRange.parse("bytes=0-9", size: 100) == .satisfiable(0..<10))
        #expect(ByteRange.parse("bytes=90-", size: 100) == .satisfiable(90..<100))
        #expect(ByteRange.parse("bytes=90-500", size: 100) == .satisfiable(90..<100))
        #expect(ByteRange.parse("bytes=-10", size: 100) == .satisfiable(90..<100))
        #expect(ByteRange.parse("bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-1,5-6", size: 100) == .ignored)
        #expect(ByteRange.parse("items=0-1", size: 100) == .ignored)
        #expect(ByteRange.parse("bytes=5-1", size: 100) == .ignored)
    }

    @Test("the bytes from any offset are those of the whole sequence at that offset")
    func offsets() {
        var whole = PseudoRandomBytes(seed: 5)
        let all = Array(whole.nextChunk(count: 100).readableBytesView)
        for offset in [0, 1, 7, 8, 13, 64] {
            var from = PseudoRandomBytes(seed: 5, offset: Int64(offset))
            let first = Array(from.nextChunk(count: 3).readableBytesView)
            let rest = Array(from.nextChunk(count: 20).readableBytesView)
            #expect(first + rest == Array(all[offset..<offset + 23]), "offset \(offset)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("206 with Content-Range, 416 past the end, If-Range that no longer holds gives the whole file")
    func ranges() async throws {
        try await withDemoRouter { client, _ in
            var etag = ""
            try await client.execute(uri: "/files/1000?seed=2", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.body.readableBytes == 1000)
                etag = response.headers[.eTag] ?? ""
            }
            try await client.execute(uri: "/files/1000?seed=2", method: .get, headers: [.range: "bytes=990-", .ifRange: etag]) {
                #expect($0.status == .partialContent)
                #expect($0.headers[.contentRange] == "bytes 990-999/1000")
                #expect($0.body.readableBytes == 10)
            }
            try await client.execute(uri: "/files/1000?seed=2", method: .get, headers: [.range: "bytes=1000-"]) {
                #expect($0.status == .rangeNotSatisfiable)
                #expect($0.headers[.contentRange] == "bytes */1000")
            }
            try await client.execute(uri: "/files/1000?seed=2", method: .get, headers: [.range: "bytes=5-", .ifRange: "\"old\""]) {
                #expect($0.status == .ok)
                #expect($0.body.readableBytes == 1000)
            }
            try await client.execute(uri: "/files/1000?seed=2&ranges=ignore", method: .get, headers: [.range: "bytes=5-"]) {
                #expect($0.status == .ok)
                #expect($0.headers[.acceptRanges] == nil)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("bumping a key's version changes the ETag and the bytes at the same URL")
    func versions() async throws {
        try await withDemoRouter { client, _ in
            var first: (String?, ByteBuffer)?
            try await client.execute(uri: "/files/64?key=k", method: .get) { first = ($0.headers[.eTag], $0.body) }
            try await client.execute(uri: "/files/versions/k", method: .post) { #expect($0.status == .ok) }
            try await client.execute(uri: "/files/64?key=k", method: .get) { response in
                #expect(response.headers[.eTag] != first?.0)
                #expect(response.body != first?.1)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("a multipart upload is answered part by part with sizes and SHA-256; a malformed one is a 400")
    func multipart() async throws {
        try await withDemoRouter { client, _ in
            let body =
                "--b\r\nContent-Disposition: form-data; name=\"a;b\"; filename=\"x.txt\"; filename*=UTF-8''%C3%A9.txt\r\n"
                + "Content-Type: text/plain\r\n\r\nabc\r\n--b--\r\n"
            try await client.execute(
                uri: "/upload/multipart", method: .post, headers: [.contentType: "multipart/form-data; boundary=b"],
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
                let part = response.json["parts"]?[0]
                #expect(part?["name"] == .string("a;b"))
                #expect(part?["filename"] == .string("x.txt"))
                #expect(part?["filename_star"] == .string("é.txt"))
                #expect(part?["size"] == .number(3))
                #expect(part?["sha256"] == .string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
            }
            try await client.execute(uri: "/upload/multipart", method: .post, headers: [.contentType: "text/plain"]) {
                #expect($0.status == .badRequest)
            }
        }
    }
}
