import DemoAPI
import Foundation
import HTTPTypes
import NetworkingKit
import Testing

/// Answers no well-behaved server sends, the same case over every transport: bad framing, a
/// status line that is not HTTP, resets mid-body, an untrusted certificate, compressed bodies
/// (well-compressed and bombs).
@Suite("Conformance: hostile servers", .timeLimit(.minutes(5)))
struct HostileServerConformanceTests {
    private func client(_ server: ByteFaultServer, _ kind: TransportKind) -> LiveAPIClient {
        LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: server.baseURL, transport: kind.transport))
    }

    @Test(
        "a repeated, differing or unparsable Content-Length is invalidResponse (RFC 9112 §6.3), never a body",
        arguments: TransportKind.allCases, ["/duplicate-content-length", "/invalid-content-length"])
    func badContentLength(kind: TransportKind, path: String) async throws {
        try await ByteFaultServer.withServer { server in
            let error = await networkError { _ = try await client(server, kind).send(Request<String>(path: path)) }
            #expect(error?.transportKind == .invalidResponse, "got \(String(describing: error))")
        }
    }

    @Test(
        "field names in any case are found by name, and the SwiftNIO transports keep each as the server spelt it",
        arguments: TransportKind.allCases)
    func fieldNameSpellings(kind: TransportKind) async throws {
        try await ByteFaultServer.withServer { server in
            let response = try await client(server, kind).response(Request<String>(path: "/field-name-spellings"))
            #expect(response.value == "ok")
            let fields = response.response.headerFields
            #expect(fields[.contentType] == "text/plain")
            #expect(fields[.contentLength] == "2")
            #expect(fields[.cacheControl] == "no-store")
            #expect(fields[HTTPField.Name("X-Request-ID")!] == "abc")
            #expect(fields[HTTPField.Name("x-odd-name")!] == "1")
            if kind != .urlSession {
                // FoundationNetworking respells and reorders some (Content-Length); SwiftNIO hands them on as sent.
                #expect(
                    fields.map(\.name.rawName) == [
                        "content-type", "CONTENT-LENGTH", "Cache-Control", "x-request-id", "X-Odd-name", "Connection",
                    ])
            }
        }
    }

    @Test("an answer that is not HTTP is invalidResponse", arguments: TransportKind.allCases)
    func notHTTP(kind: TransportKind) async throws {
        try await ByteFaultServer.withServer { server in
            let error = await networkError { _ = try await client(server, kind).send(Request<String>(path: "/not-http")) }
            #expect(error?.transportKind == .invalidResponse, "got \(String(describing: error))")
        }
    }

    @Test(
        "a reset once the body has started is truncatedBody, with or without a length",
        arguments: TransportKind.allCases, ["/reset-mid-body", "/reset-mid-chunked"])
    func resetMidBody(kind: TransportKind, path: String) async throws {
        try await ByteFaultServer.withServer { server in
            let error = await networkError { _ = try await client(server, kind).send(Request<Data>(path: path)) }
            #expect(error?.transportKind == .truncatedBody, "got \(String(describing: error))")
        }
    }

    @Test("a certificate nobody vouches for is secureConnectionFailed", arguments: TransportKind.allCases)
    func untrustedCertificate(kind: TransportKind) async throws {
        try await ByteFaultServer.withServer(tls: true) { server in
            let error = await networkError { _ = try await client(server, kind).send(Request<String>(path: "/")) }
            #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            #expect(error?.localizedDescription == "A secure connection to the server could not be established.")
        }
    }

    struct Film: Decodable, Equatable, Sendable {
        let title: String
        let year: Int
    }

    @Test(
        "gzip and deflate answers far past 25:1 decode, and both transports ask for the same encodings",
        arguments: TransportKind.allCases, ["gzip", "deflate"])
    func compressedAnswers(kind: TransportKind, encoding: String) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let answer = try await client.response(
                Request<[Film]>(
                    path: "/encoding/films",
                    query: [URLQueryItem(name: "count", value: "2000"), URLQueryItem(name: "encoding", value: encoding)]))
            #expect(answer.value.count == 2000)
            #expect(answer.value.allSatisfy { $0 == Film(title: "Toy Story", year: 1995) })
            let compressed = try #require(answer.response.headerFields[.contentLength].flatMap(Int.init))
            #expect(answer.data.count > 60 * compressed, "\(answer.data.count) bytes from \(compressed)")

            let echo = try await client.send(Request<Echo>(path: "/echo"))
            #expect(echo.headers["accept-encoding"] == "gzip, deflate")
        }
    }

    @Test("a gzip bomb stops at the size limit with responseTooLarge", arguments: TransportKind.allCases)
    func gzipBomb(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind, maxResponseBodySize: 1 << 20)
            let error = await networkError {
                _ = try await client.send(
                    Request<Data>(path: "/encoding/bomb", query: [URLQueryItem(name: "inflated", value: "\(256 << 20)")]))
            }
            guard case .responseTooLarge(let limit, _)? = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 1 << 20)
        }
    }
}

extension HostileServerConformanceTests {
    @Test(
        "a content coding nobody here decodes is handed on as it is over AsyncHTTPClient; URLSession on Linux cannot receive it",
        arguments: TransportKind.allCases)
    func unknownContentCoding(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let request = Request<Data>(
                path: "/cache/coded",
                query: [URLQueryItem(name: "h", value: "Content-Encoding:x-custom"), URLQueryItem(name: "body", value: "raw")])
            #if canImport(FoundationNetworking)
            if kind == .urlSession {
                // FoundationNetworking always has libcurl decode bodies (automaticBodyDecompression
                // is set on every task), and libcurl refuses a coding it does not know.
                let error = await networkError { _ = try await makeClient(server, kind).response(request) }
                guard case .transport(let failure)? = error else {
                    Issue.record("expected a transport failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.kind == .invalidResponse)
                return
            }
            #endif
            let response = try await makeClient(server, kind).response(request)
            #expect(response.headerFields[.contentEncoding] == "x-custom")
            #expect(response.value == Data("raw".utf8))
        }
    }
}
