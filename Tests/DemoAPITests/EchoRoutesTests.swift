import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Echo and upload")
struct EchoRoutesTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func echoesMethodPathQueryHeadersAndBody() async throws {
        try await withDemoRouter { client, _ in
            var headers: HTTPFields = [.contentType: "text/plain"]
            headers.append(HTTPField(name: .accept, value: "a/b"))
            headers.append(HTTPField(name: .accept, value: "c/d"))
            try await client.execute(uri: "/echo/a%20b/c?x=1&y=%2F", method: .put, headers: headers, body: ByteBuffer(string: "hello")) {
                response in
                #expect(response.status == .ok)
                let echo = response.json
                #expect(echo["method"] == .string("PUT"))
                #expect(echo["path"] == .string("/echo/a%20b/c"))
                #expect(echo["query"] == .string("x=1&y=%2F"))
                #expect(echo["headers"]?["accept"] == .string("a/b, c/d"))
                #expect(echo["headers"]?["content-type"] == .string("text/plain"))
                #expect(echo["headers"]?["host"] == .string("localhost"))
                #expect(echo["body"] == .string("hello"))
                #expect(echo["body_base64"] == .string("aGVsbG8="))
                #expect(echo["body_size"] == .number(5))
                #expect(echo["parts"] == .null)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func echoWithoutQueryOrBodyAndWithBinaryBody() async throws {
        try await withDemoRouter { client, state in
            try await client.execute(uri: "/echo", method: .get) { response in
                let echo = response.json
                #expect(echo["query"] == .null)
                #expect(echo["body"] == .string(""))
                #expect(echo["body_size"] == .number(0))
            }
            try await client.execute(uri: "/echo", method: .post, body: ByteBuffer(bytes: [0xff, 0xfe])) { response in
                let echo = response.json
                #expect(echo["body"] == .null)
                #expect(echo["body_base64"] == .string("//4="))
            }
            #expect(state.stats.count("GET /echo") == 1)
            #expect(state.stats.count("POST /echo") == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func echoParsesMultipartParts() async throws {
        let body = [
            "--XyZ",
            #"Content-Disposition: form-data; name="title""#,
            "",
            "Toy Story",
            "--XyZ",
            #"Content-Disposition: form-data; name="poster"; filename="poster.png""#,
            "Content-Type: image/png",
            "",
            "PNGDATA",
            "--XyZ--",
            "",
        ].joined(separator: "\r\n")
        try await withDemoRouter { client, _ in
            try await client.execute(
                uri: "/echo",
                method: .post,
                headers: [.contentType: #"multipart/form-data; boundary="XyZ""#],
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
                let parts = try #require(response.json["parts"])
                #expect(parts.arrayCount == 2)
                #expect(parts[0] == .object(["name": .string("title"), "size": .number(9), "text": .string("Toy Story")]))
                #expect(parts[1]?["name"] == .string("poster"))
                #expect(parts[1]?["filename"] == .string("poster.png"))
                #expect(parts[1]?["content_type"] == .string("image/png"))
                #expect(parts[1]?["size"] == .number(7))
            }
            try await client.execute(
                uri: "/echo",
                method: .post,
                headers: [.contentType: "multipart/form-data; boundary=Other"],
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func echoRefusesBodiesOver16MiB() async throws {
        try await withDemoRouter { client, _ in
            // Declared but not sent: the route refuses on the declared length before reading.
            try await client.execute(uri: "/echo", method: .post, headers: [.contentLength: "16777217"]) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.json["code"] == .string("payload_too_large"))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func uploadHashesTheBody() async throws {
        try await withDemoRouter { client, _ in
            // Published FNV-1a 64 and SHA-256 test vectors.
            try await client.execute(uri: "/upload", method: .post, body: ByteBuffer(string: "a")) { response in
                #expect(
                    response.json
                        == .object([
                            "size": .number(1), "fnv1a64": .string("af63dc4c8601ec8c"),
                            "sha256": .string("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"),
                        ]))
            }
            try await client.execute(uri: "/upload", method: .put, body: ByteBuffer(string: "foobar")) { response in
                #expect(response.json["fnv1a64"] == .string("85944171f73967e8"))
            }
            try await client.execute(uri: "/upload", method: .post) { response in
                #expect(response.json["fnv1a64"] == .string("cbf29ce484222325"))
                #expect(response.json["sha256"] == .string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
            }
            // 3 MiB, over Hummingbird's 2 MiB decoding default, arrives in many chunks.
            let big = ByteBuffer(repeating: 0x42, count: 3 * 1024 * 1024)
            try await client.execute(uri: "/upload", method: .post, body: big) { response in
                #expect(response.json["size"] == .number(3 * 1024 * 1024))
            }
            try await client.execute(uri: "/upload", method: .post, headers: [.contentLength: "8589934593"]) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
    }
}
