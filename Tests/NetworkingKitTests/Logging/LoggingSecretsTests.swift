import Foundation
import HTTPTypes
import Logging
import NetworkingKit
import NetworkingKitTesting
import Testing

/// No secret reaches a log line, a metadata value or a logged error, on any path a call can take.
/// The loggers run at `trace`, so that headers and every inner middleware's lines are included.
@Suite("Logging keeps secrets out")
struct LoggingSecretsTests {
    @Test("a successful call")
    func success() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture)
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(capture.records.count >= 2)
        #expect(Secrets.leaks(in: capture.records) == [])
    }

    @Test("a 4xx answer whose error body echoes the key, with bodies logged")
    func clientError() async throws {
        let capture = LogCapture()
        let logging = LoggingMiddleware(redaction: Secrets.redaction, logsBodies: .text(maxBytes: 1000))
        let (client, _) = makeLoggedClient(capture, logging: logging) { _ in
            .json(#"{"message":"api_key \#(Secrets.queryKey) is not valid"}"#, status: .forbidden)
        }
        let error = await networkError { _ = try await client.response(Secrets.endpoint, as: OK.self) }
        #expect(error?.statusCode == 403)
        #expect(capture.records("Received response").first?.metadata["http.response.body"] != nil)
        #expect(Secrets.leaks(in: capture.records) == [])
    }

    @Test(
        "a declared secret nested in another parameter's percent-encoded value is hidden in every line",
        arguments: [
            "/anything?api_key=\(Secrets.queryKey)", "/anything?api%5Fkey=\(Secrets.queryKey)&x=1",
            "https://other.example/cb?state=1&api_key=\(Secrets.queryKey)",
            // Twice encoded: a redirect target carrying a callback URL.
            "/login?next=%2Fcb%3Fapi_key%3D\(Secrets.queryKey)",
        ])
    func nestedQuery(nested: String) async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { recorded in
            throw NetworkError.transport(TransportFailure(kind: .connectionLost, request: RequestSummary(recorded.request)))
        }
        // `?url=%2Fanything%3Fapi%5Fkey%3DSECRET` put SECRET in http.url of the request, response and error lines.
        let endpoint = TestEndpoint(path: "/redirect", queryItems: [URLQueryItem(name: "url", value: nested)])
        _ = await networkError { _ = try await client.response(endpoint, as: OK.self) }
        #expect(capture.records("Sending request").count == 1)
        #expect(capture.records("Request failed").count == 1)
        #expect(Secrets.leaks(in: capture.records) == [])
        // Not encoded at all: a `?` inside a value starts parameters of its own.
        let raw = try #require(URL(string: "https://h.example/login?next=/cb?api_key=\(Secrets.queryKey)&x=1"))
        #expect(!Secrets.redaction.redact(raw).absoluteString.contains(Secrets.queryKey))
        // Only the secret goes: the rest of the nested URL stays readable.
        let url = capture.records("Sending request").first?.metadata["http.url"].map { "\($0)" } ?? ""
        #expect(url.contains("url=") && url.contains("redacted"), "\(url)")
    }

    @Test("a header's credential quoted in the request's own URL, under a parameter nobody declared, is hidden in http.url")
    func headerSecretInTheURL() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { recorded in
            throw NetworkError.transport(TransportFailure(kind: .connectionLost, request: RequestSummary(recorded.request)))
        }
        // `token` is no declared query parameter: only the pass over the call's known secrets finds it.
        let endpoint = TestEndpoint(
            path: "/films", headers: ["Authorization": "Bearer \(Secrets.bearer)", "X-API-Key": Secrets.apiKeyHeader],
            queryItems: [URLQueryItem(name: "token", value: Secrets.bearer), URLQueryItem(name: "echo", value: Secrets.apiKeyHeader)])
        _ = await networkError { _ = try await client.response(endpoint, as: OK.self) }
        let urls = capture.records.compactMap { $0.metadata["http.url"].map { "\($0)" } }
        #expect(urls.count == 2)
        #expect(urls.allSatisfy { $0.contains("token=") && $0.contains("echo=") && !$0.contains(Secrets.bearer) })
        #expect(Secrets.leaks(in: capture.records) == [])
    }

    @Test("a transport failure whose description quotes the URL")
    func transportFailure() async throws {
        let capture = LogCapture()
        let (client, _) = makeLoggedClient(capture) { recorded in
            throw NetworkError.transport(
                TransportFailure(
                    kind: .connectionLost,
                    underlying: URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: recorded.url as Any]),
                    request: RequestSummary(recorded.request)))
        }
        _ = await networkError { _ = try await client.response(Secrets.endpoint, as: OK.self) }
        #expect(capture.records("Request failed").count == 1)
        #expect(Secrets.leaks(in: capture.records) == [])
    }

    @Test("retries, whose reasons the retry middleware logs")
    func retries() async throws {
        let capture = LogCapture()
        let retry = RetryMiddleware(policy: RetryPolicy(jitter: .none), budget: nil, clock: ImmediateClock())
        let (client, transport) = makeLoggedClient(capture, inner: [retry]) { recorded in
            if recorded.attempt < 3 {
                throw NetworkError.transport(
                    TransportFailure(kind: .connectionLost, request: RequestSummary(recorded.request)))
            }
            return .json(#"{"ok":true}"#)
        }
        _ = try await client.response(Secrets.endpoint, as: OK.self)
        #expect(transport.requests.count == 3)
        let reasons = capture.records("Retrying request").compactMap { $0.metadata["reason"] }
        #expect(reasons.count == 2)
        #expect(reasons.allSatisfy { $0.contains("api_key=%3Credacted%3E") })
        #expect(Secrets.leaks(in: capture.records) == [])
    }

    @Test("a token refresh and replay, and a refresh that fails")
    func authRefresh() async throws {
        let server = FakeTokenServer()
        let refresher = TokenRefresher(store: InMemoryTokenStore(server.currentToken)) { try await server.refresh($0) }
        let capture = LogCapture()
        let (client, transport) = makeLoggedClient(capture, inner: [AuthenticationMiddleware(tokenProvider: refresher)]) {
            server.answer($0)
        }
        let me = TestEndpoint(
            path: "/me", headers: ["X-API-Key": Secrets.apiKeyHeader],
            queryItems: [URLQueryItem(name: "api_key", value: Secrets.queryKey)])
        server.expireAccessToken()
        _ = try await client.response(me, as: [String: String].self)
        #expect(server.refreshCount == 1)
        #expect(transport.requests.count == 2)

        server.expireAccessToken()
        server.failRefreshes(with: NetworkError.unauthorized(FakeTokenServer.refusal))
        _ = await networkError { _ = try await client.response(me, as: [String: String].self) }

        let tokens = ["at-1", "at-2", "rt-1", "rt-2"]
        let lines = capture.records.map(\.rendered)
        #expect(lines.filter { line in tokens.contains { line.contains("Bearer \($0)") || line.contains("\"\($0)\"") } } == [])
        #expect(Secrets.leaks(in: capture.records) == [])
        #expect(capture.records("Sending request").count == 2)
    }

    @Test("a sensitive header an inner middleware adds, unknown to the logging middleware")
    func headerAddedInside() async throws {
        struct Refused: Error, CustomStringConvertible {
            let description: String
        }
        let capture = LogCapture()
        let addKey = ProbeMiddleware { request, body, context, next in
            var request = request
            request.headerFields[HTTPField.Name("X-API-Key")!] = Secrets.apiKeyHeader
            context.logger.debug(
                "Added key X-API-Key: \(Secrets.apiKeyHeader)",
                metadata: ["headers": "\(request.headerFields)", "key": "X-API-Key: \(Secrets.apiKeyHeader)"])
            return try await next(request, body, context)
        }
        let logging = LoggingMiddleware(redaction: Secrets.redaction, logsHeaders: true)
        let (client, transport) = makeLoggedClient(capture, logging: logging, inner: [addKey]) { _ in
            throw Refused(description: "refused request with X-API-Key: \(Secrets.apiKeyHeader)")
        }
        _ = try? await client.response(TestEndpoint(path: "/films"), as: OK.self)
        #expect(transport.requests.first?.request.headerFields[HTTPField.Name("X-API-Key")!] == Secrets.apiKeyHeader)
        #expect(capture.records("Added key X-API-Key: <redacted>").count == 1)
        #expect(capture.records("Request failed").count == 1)
        #expect(Secrets.leaks(in: capture.records) == [])
    }
}
