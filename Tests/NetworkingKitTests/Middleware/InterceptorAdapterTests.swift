import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Seed-shaped interceptors")
struct InterceptorAdapterTests {
    /// Seed 000's interceptor, unchanged.
    actor TokenStore {
        private var accessToken: String? = "secret-token"
        func token() -> String? { accessToken }
    }

    struct AuthInterceptor: RequestInterceptor {
        let tokenStore: TokenStore
        func intercept(_ request: URLRequest) async throws -> URLRequest {
            guard let token = await tokenStore.token() else { throw NetworkError.invalidRequest(reason: "no token") }
            var mutated = request
            mutated.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            return mutated
        }
    }

    @Test("a seed 000 request interceptor adds its header")
    func requestInterceptor() async throws {
        let (client, transport) = makeClient(middlewares: [AuthInterceptor(tokenStore: TokenStore()).middleware])
        try await client.request(TestEndpoint(path: "/me"))
        #expect(transport.requests.first?.header("Authorization") == "Bearer secret-token")
    }

    @Test("an interceptor sees the buffered body and may replace it, the URL and the method")
    func interceptorChangesEverything() async throws {
        let seen = Log()
        let interceptor = RequestInterceptorMiddleware { request in
            seen.append(String(data: request.httpBody ?? Data(), encoding: .utf8) ?? "")
            var request = request
            request.url = URL(string: "https://other.example.com/v2/replaced?x=1")
            request.httpMethod = "PUT"
            request.httpBody = Data("new body".utf8)
            return request
        }
        let (client, transport) = makeClient(middlewares: [interceptor])
        try await client.send(Request<Void>(path: "/x", method: .post, body: .text("old body")))
        #expect(seen.values == ["old body"])
        let sent = try #require(transport.requests.first)
        #expect(sent.url?.absoluteString == "https://other.example.com/v2/replaced?x=1")
        #expect(sent.method == .put)
        #expect(sent.bodyText == "new body")
    }

    @Test("a streamed body passes an interceptor untouched")
    func streamedBodyUntouched() async throws {
        let pulled = Counter()
        let stream = HTTPBody(CountingChunks(chunkSize: 4, chunkCount: 3, pulled: pulled), length: .known(12), iterationBehavior: .single)
        let interceptor = RequestInterceptorMiddleware { request in
            #expect(request.httpBody == nil)
            return request
        }
        let (client, transport) = makeClient(middlewares: [interceptor])
        try await client.send(Request<Void>(path: "/upload", method: .post, body: .stream(stream)))
        #expect(transport.requests.first?.bodyText == "aaaaaaaaaaaa")
    }

    @Test("a header injected by an interceptor never reaches the wire")
    func interceptorInjection() async throws {
        let interceptor = RequestInterceptorMiddleware { request in
            var request = request
            request.setValue("x\r\nSet-Cookie: evil=1", forHTTPHeaderField: "X-Evil")
            return request
        }
        let (client, transport) = makeClient(middlewares: [interceptor])
        let error = await networkError { try await client.request(TestEndpoint(path: "/x")) }
        if let error {
            // Apple's Foundation keeps the value; NetworkingKit refuses it.
            guard case .invalidRequest = error else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect(transport.requests.isEmpty)
        } else {
            // FoundationNetworking drops an illegal value inside `setValue` already.
            let sent = try #require(transport.requests.first)
            #expect(sent.header("X-Evil") == nil)
            #expect(sent.header("Set-Cookie") == nil)
        }
    }

    @Test("an error thrown by a request interceptor stops the call")
    func interceptorThrows() async throws {
        let interceptor = RequestInterceptorMiddleware { _ in throw NetworkError.invalidRequest(reason: "signed out") }
        let (client, transport) = makeClient(middlewares: [interceptor])
        let error = await networkError { try await client.request(TestEndpoint(path: "/x")) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason == "signed out")
        #expect(transport.requests.isEmpty)
    }

    /// Seed 004's response interceptor, unchanged.
    struct EnvelopeUnwrapper: ResponseInterceptor {
        func intercept(data: Data, response: URLResponse) async throws -> (Data, URLResponse) {
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let inner = try JSONSerialization.data(withJSONObject: object?["data"] ?? [])
            return (inner, response)
        }
    }

    @Test("a seed 004 response interceptor may rewrite the body before decoding")
    func responseInterceptor() async throws {
        let (client, _) = makeClient(middlewares: [EnvelopeUnwrapper().middleware]) { _ in .json(#"{"data":["a","b"]}"#) }
        #expect(try await client.send(Request<[String]>(path: "/x")) == ["a", "b"])
    }

    @Test("a response interceptor sees status and headers, and may change the status")
    func responseInterceptorStatus() async throws {
        let seen = Log()
        let interceptor = ResponseInterceptorMiddleware { data, response in
            let http = response as? HTTPURLResponse
            seen.append("\(http?.statusCode ?? 0) \(http?.value(forHTTPHeaderField: "X-Tag") ?? "")")
            let notFound = HTTPURLResponse(url: response.url!, statusCode: 404, httpVersion: nil, headerFields: nil)!
            return (data, notFound)
        }
        let (client, _) = makeClient(middlewares: [interceptor]) { _ in .json("[]", headers: ["X-Tag": "t"]) }
        let error = await networkError { _ = try await client.send(Request<[String]>(path: "/x")) }
        #expect(seen.values == ["200 t"])
        guard case .notFound = error else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
    }

    @Test("a failed response keeps its status through a response interceptor, however large its body")
    func responseInterceptorErrorBody() async throws {
        let interceptor = ResponseInterceptorMiddleware { data, response in (data, response) }
        let (client, _) = makeClient(middlewares: [interceptor], maxResponseBodySize: 1000) { _ in
            .data(Data(count: 5000), status: .serviceUnavailable)
        }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        guard case .serverError(let failure) = error else {
            Issue.record("expected serverError, got \(String(describing: error))")
            return
        }
        #expect(failure.status == .serviceUnavailable)
    }

    @Test("a response interceptor respects the size limit")
    func responseInterceptorLimit() async throws {
        let interceptor = ResponseInterceptorMiddleware { data, response in (data, response) }
        let (client, _) = makeClient(middlewares: [interceptor], maxResponseBodySize: 10) { _ in .data(Data(count: 11)) }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        guard case .responseTooLarge = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
    }
}
