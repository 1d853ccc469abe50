import Foundation
import Logging
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Bodies in the log: only when asked, only text, cut to the limit, and never taken from the caller.
@Suite("Logging bodies")
struct BodyLoggingTests {
    static let json = #"{"ok":true,"title":"Toy Story"}"#

    @Test("bodies are not logged unless asked")
    func offByDefault() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { _ in .json(Self.json) }
        _ = try await client.response(TestEndpoint(path: "/films", method: .post, requestBody: .json(["a": 1])), as: OK.self)
        try #require(capture.records.count == 2)
        #expect(capture.records.allSatisfy { $0.metadata["http.request.body"] == nil && $0.metadata["http.response.body"] == nil })
    }

    @Test("text bodies are logged when asked, cut to maxBytes")
    func truncated() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(logsBodies: .text(maxBytes: 10))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in .json(Self.json) }
        let value = try await client.response(TestEndpoint(path: "/films"), as: OK.self)
        #expect(value.value == OK(ok: true))
        let body = try #require(capture.records("Received response").first?.metadata["http.response.body"])
        #expect(body == #"{"ok":true"# + "… (\(Self.json.utf8.count) bytes, truncated)")
    }

    @Test("a buffered JSON request body is logged, its declared secrets hidden")
    func requestBody() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(
            redaction: .default.adding(queryParameters: ["password"]), logsBodies: .text(maxBytes: 1000))
        let (client, _) = makeLoggedClient(capture, logging: logging)
        let endpoint = TestEndpoint(path: "/login", method: .post, requestBody: .json(["password": "hunter22", "user": "woody"]))
        _ = try await client.response(endpoint, as: OK.self)
        let body = try #require(capture.records("Sending request").first?.metadata["http.request.body"])
        #expect(body.contains("woody"))
        #expect(!body.contains("hunter22"))
    }

    @Test("binary types are not logged", arguments: ["image/png", "application/octet-stream", "application/pdf"])
    func binaryTypes(contentType: String) async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(logsBodies: .text(maxBytes: 1000))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in
            .data(Data(Self.json.utf8), headers: ["Content-Type": contentType])
        }
        _ = try? await client.response(TestEndpoint(path: "/films"), as: OK.self)
        let received = try #require(capture.records("Received response").first)
        #expect(received.metadata["http.response.body"] == nil)
    }

    @Test(
        "text types are logged",
        arguments: ["text/plain; charset=utf-8", "application/problem+json", "application/xml", "application/x-www-form-urlencoded"])
    func textTypes(contentType: String) async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(logsBodies: .text(maxBytes: 1000))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in
            .data(Data("hello".utf8), headers: ["Content-Type": contentType])
        }
        _ = try? await client.response(TestEndpoint(path: "/films"), as: OK.self)
        let received = try #require(capture.records("Received response").first)
        #expect(received.metadata["http.response.body"] == "hello")
    }

    @Test("a streamed response of known length is logged and still reaches the caller whole")
    func streamOfKnownLength() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(logsBodies: .text(maxBytes: 1000))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in
            StubResponse(headers: ["Content-Type": "application/json"], body: Self.oneShot(Self.json, declared: true))
        }
        let value = try await client.response(TestEndpoint(path: "/films"), as: OK.self)
        #expect(value.value == OK(ok: true))
        #expect(capture.records("Received response").first?.metadata["http.response.body"] == Self.json)
    }

    @Test("a stream of unknown length is not logged, and the caller still reads it")
    func streamOfUnknownLength() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(logsBodies: .text(maxBytes: 1000))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in
            StubResponse(headers: ["Content-Type": "application/json"], body: Self.oneShot(Self.json, declared: false))
        }
        let value = try await client.response(TestEndpoint(path: "/films"), as: OK.self)
        #expect(value.value == OK(ok: true))
        #expect(capture.records("Received response").first?.metadata["http.response.body"] == nil)
    }

    /// A one-shot streamed body: reading it twice would fail, so a test passing proves it was
    /// read once.
    static func oneShot(_ text: String, declared: Bool) -> HTTPBody {
        let data = Data(text.utf8)
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(data.prefix(5))
            continuation.yield(data.dropFirst(5))
            continuation.finish()
        }
        return HTTPBody(chunks, length: declared ? .known(Int64(data.count)) : .unknown, iterationBehavior: .single)
    }
}
