import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// What goes on the wire, the same over every transport: methods, headers, query encoding,
/// bodies of every kind and size.
@Suite("Conformance: requests", .timeLimit(.minutes(3)))
struct RequestConformanceTests {
    @Test(
        "every method reaches the server as sent", arguments: TransportKind.allCases, ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func methods(kind: TransportKind, method: String) async throws {
        try await withDemoServer { server in
            let echo: Echo = try await makeClient(server, kind).send(
                Request(path: "/echo", method: HTTPRequest.Method(method)!))
            #expect(echo.method == method)
        }
    }

    @Test("HEAD answers with headers and no body", arguments: TransportKind.allCases)
    func head(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let response = try await makeClient(server, kind).response(Request<Data>(path: "/films", method: .head))
            #expect(response.response.status == .ok)
            #expect(response.data.isEmpty)
        }
    }

    @Test("headers arrive as set: the endpoint's, the client's defaults, and Accept", arguments: TransportKind.allCases)
    func headers(kind: TransportKind) async throws {
        try await withDemoServer { server in
            var configuration = LiveAPIClient.Configuration(baseURL: server.baseURL, transport: kind.transport)
            configuration.defaultHeaders = ["X-Client": "netkit-tests"]
            let client = LiveAPIClient(configuration: configuration)
            let echo: Echo = try await client.send(
                Request(path: "/echo", headers: ["X-Request-Tag": "alpha, beta; q=1"]))
            #expect(echo.headers["x-client"] == "netkit-tests")
            #expect(echo.headers["x-request-tag"] == "alpha, beta; q=1")
            #expect(echo.headers["accept"] == "application/json")
        }
    }

    @Test("query values are escaped strictly and repeated keys are kept", arguments: TransportKind.allCases)
    func queryEncoding(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let query = [
                URLQueryItem(name: "q", value: "toy story & friends"), URLQueryItem(name: "plus", value: "a+b=c"),
                URLQueryItem(name: "tag", value: "one"), URLQueryItem(name: "tag", value: "two"),
                URLQueryItem(name: "emoji", value: "🎬"), URLQueryItem(name: "flag", value: nil),
            ]
            let echo: Echo = try await makeClient(server, kind).send(Request(path: "/echo", query: query))
            #expect(echo.query == "q=toy%20story%20%26%20friends&plus=a%2Bb%3Dc&tag=one&tag=two&emoji=%F0%9F%8E%AC&flag")
        }
    }

    @Test("a query value holding CR, LF and NUL (a pasted multi-line text) is sent percent-encoded", arguments: TransportKind.allCases)
    func queryControlCharacters(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let query = [URLQueryItem(name: "q", value: "line one\r\nline two\n\0")]
            let echo: Echo = try await makeClient(server, kind).send(Request(path: "/echo", query: query))
            #expect(echo.query == "q=line%20one%0D%0Aline%20two%0A%00")
        }
    }

    @Test("path segments are escaped and cannot climb out of the path", arguments: TransportKind.allCases)
    func pathEscaping(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let echo: Echo = try await makeClient(server, kind).send(
                Request(path: "/echo/\(PathSegment.escape("a b/../c"))/x"))
            #expect(echo.path == "/echo/a%20b%2F..%2Fc/x")
        }
    }

    @Test("a JSON body arrives as encoded, with its content type", arguments: TransportKind.allCases)
    func jsonBody(kind: TransportKind) async throws {
        try await withDemoServer { server in
            struct Payload: Encodable, Sendable {
                let filmId: String
                let rating: Int
            }
            let echo: Echo = try await makeClient(server, kind).send(
                Request(path: "/echo", method: .post, body: .json(Payload(filmId: "up", rating: 5))))
            #expect(echo.body == #"{"film_id":"up","rating":5}"#)
            #expect(echo.headers["content-type"] == "application/json")
            #expect(echo.headers["content-length"] == "27")
        }
    }

    @Test("raw bytes, text and form bodies arrive byte for byte", arguments: TransportKind.allCases)
    func rawBodies(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let bytes = Data((0...255).map(UInt8.init))
            let binary: Echo = try await client.send(Request(path: "/echo", method: .put, body: .data(bytes)))
            #expect(Data(base64Encoded: binary.bodyBase64) == bytes)
            #expect(binary.headers["content-type"] == "application/octet-stream")

            let text: Echo = try await client.send(Request(path: "/echo", method: .post, body: .text("héllo\n")))
            #expect(text.body == "héllo\n")

            let form: Echo = try await client.send(
                Request(path: "/echo", method: .post, body: .form(["name": "Buzz Lightyear", "motto": "to infinity & beyond"])))
            #expect(form.body == "motto=to+infinity+%26+beyond&name=Buzz+Lightyear")
            #expect(form.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true)
        }
    }

    @Test("empty bodies: an empty upload, a 204, and an empty 200 into an optional", arguments: TransportKind.allCases)
    func emptyBodies(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let echo: Echo = try await client.send(Request(path: "/echo", method: .post, body: .data(Data())))
            #expect(echo.bodySize == 0)
            try await client.send(Request<Void>(path: "/status/204"))
            let none: Echo? = try await client.send(Request(path: "/status/204"))
            #expect(none == nil)
        }
    }

    @Test("10 MB up, buffered and streamed with or without a length, arrive whole", arguments: TransportKind.allCases)
    func largeUploads(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let size = 10 * 1024 * 1024
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            let expected = UploadReceipt(size: size, fnv1a64: fnv1a64(data))

            let buffered: UploadReceipt = try await client.send(Request(path: "/upload", method: .post, body: .data(data)))
            #expect(buffered == expected)

            let chunkSize = 256 * 1024
            let chunks = stride(from: 0, to: size, by: chunkSize).map { data[$0..<min($0 + chunkSize, size)] }
            let stream = HTTPBody(
                AsyncStream { continuation in
                    chunks.forEach { continuation.yield(Data($0)) }
                    continuation.finish()
                }, length: .known(Int64(size)), iterationBehavior: .single)
            let streamed: UploadReceipt = try await client.send(Request(path: "/upload", method: .put, body: .stream(stream)))
            #expect(streamed == expected)

            // Without a length: chunked transfer encoding where the transport streams.
            let unsized = HTTPBody(
                AsyncStream { continuation in
                    chunks.forEach { continuation.yield(Data($0)) }
                    continuation.finish()
                }, length: .unknown, iterationBehavior: .single)
            let chunked: UploadReceipt = try await client.send(Request(path: "/upload", method: .post, body: .stream(unsized)))
            #expect(chunked == expected)
        }
    }

    @Test("10 MB down, with and without Content-Length, arrive whole", arguments: TransportKind.allCases)
    func largeDownloads(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let size = 10 * 1024 * 1024
            let sized: Data = try await client.send(Request(path: "/bytes/\(size)", query: [URLQueryItem(name: "seed", value: "7")]))
            let chunked: Data = try await client.send(Request(path: "/stream/\(size)", query: [URLQueryItem(name: "seed", value: "7")]))
            #expect(sized.count == size)
            #expect(sized == splitMix64Bytes(seed: 7, count: size))
            #expect(chunked == sized)
        }
    }

    @Test("the size limit stops a download at the limit, declared or not", arguments: TransportKind.allCases, ["bytes", "stream"])
    func sizeLimit(kind: TransportKind, route: String) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind, maxResponseBodySize: 1024 * 1024)
            let error = await networkError { let _: Data = try await client.send(Request(path: "/\(route)/\(4 * 1024 * 1024)")) }
            guard case .responseTooLarge(let limit, let request)? = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 1024 * 1024)
            #expect(request?.url?.path == "/\(route)/\(4 * 1024 * 1024)")
        }
    }
}
