import Foundation
import NetworkingKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSessionTransport` against a real HTTP server on 127.0.0.1.
@Suite("URLSessionTransport against a local server")
struct URLSessionTransportTests {
    private func client(_ server: TestHTTPServer, maxResponseBodySize: Int = 1 << 20, timeout: Duration = .seconds(30))
        -> LiveAPIClient
    {
        LiveAPIClient(
            configuration: .init(
                baseURL: server.url("/"), transport: URLSessionTransport(), timeout: timeout,
                maxResponseBodySize: maxResponseBodySize))
    }

    @Test("method, path, query, headers and body arrive as sent")
    func echo() async throws {
        try await TestHTTPServer.with { server in
            let reply = try await client(server).send(
                Request<EchoReply>(
                    path: "/echo/a b", method: .post, query: [URLQueryItem(name: "q", value: "a+b&c")],
                    headers: ["X-Custom": "value"], body: .json(["name": "Woody"])))
            #expect(reply.method == "POST")
            #expect(reply.path == "/echo/a%20b")
            #expect(reply.query == "q=a%2Bb%26c")
            #expect(reply.headers["x-custom"] == "value")
            #expect(reply.headers["content-type"] == "application/json")
            #expect(reply.headers["accept"] == "application/json")
            #expect(reply.body == #"{"name":"Woody"}"#)
        }
    }

    @Test("an error status maps to its case with the server's message")
    func errorStatus() async throws {
        try await TestHTTPServer.with { server in
            let error = await networkError { _ = try await client(server).send(Request<[String]>(path: "/status/404")) }
            guard case .notFound(let failure) = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
            #expect(failure.serverMessage == "status 404")
            #expect(failure.request.url == server.url("/status/404"))
        }
    }

    @Test("a large body arrives whole, with or without Content-Length")
    func largeBodies() async throws {
        try await TestHTTPServer.with { server in
            let client = client(server, maxResponseBodySize: 4 << 20)
            let sized = try await client.send(Request<Data>(path: "/bytes/3000000"))
            let chunked = try await client.send(Request<Data>(path: "/stream/3000000"))
            #expect(sized.count == 3_000_000)
            #expect(chunked.count == 3_000_000)
        }
    }

    @Test("a body over the limit fails, by declared length or while streaming")
    func sizeLimit() async throws {
        try await TestHTTPServer.with { server in
            let client = client(server, maxResponseBodySize: 100_000)
            for path in ["/bytes/200000", "/stream/200000"] {
                let error = await networkError { _ = try await client.send(Request<Data>(path: path)) }
                guard case .responseTooLarge(100_000, _) = error else {
                    Issue.record("expected responseTooLarge for \(path), got \(String(describing: error))")
                    continue
                }
            }
            // The connection pool is still usable afterwards.
            let small = try await client.send(Request<Data>(path: "/bytes/10"))
            #expect(small.count == 10)
        }
    }

    @Test("a body shorter than its Content-Length is an error, never a partial value")
    func truncatedBody() async throws {
        try await TestHTTPServer.with { server in
            let error = await networkError { _ = try await client(server).send(Request<Data>(path: "/truncated")) }
            guard case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .truncatedBody, "\(failure)")
        }
    }

    @Test("cancelling the calling task cancels the request in flight")
    func cancellation() async throws {
        try await TestHTTPServer.with { server in
            let client = client(server)
            let task = Task { try await client.send(Request<String>(path: "/delay/10000")) }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            task.cancel()
            let result = await task.result
            guard case .failure(NetworkError.cancelled) = result else {
                Issue.record("expected .cancelled, got \(result)")
                return
            }
            // Far below the server's 10 s delay: the request was cancelled, not waited out.
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test("a server that answers too slowly is a timeout")
    func timeout() async throws {
        try await TestHTTPServer.with { server in
            let error = await networkError {
                _ = try await client(server, timeout: .milliseconds(300)).send(Request<String>(path: "/delay/5000"))
            }
            guard case .timeout(let request) = error else {
                Issue.record("expected timeout, got \(String(describing: error))")
                return
            }
            #expect(request?.url == server.url("/delay/5000"))
        }
    }

    @Test("nothing listening is a connection failure that keeps the underlying error")
    func connectionRefused() async throws {
        // Bind a port, then close the server so that nothing listens there.
        let port = try await TestHTTPServer.with { $0.port }
        let client = LiveAPIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: URLSessionTransport())
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionRefused)
        #expect(failure.code != nil)
        #expect(failure.underlying != nil)
        #expect(error?.localizedDescription == "Unable to reach the server. Check your internet connection and try again.")
    }

    @Test("redirects are not followed by the transport: the 3xx comes back as it is", arguments: [301, 302, 303, 307, 308])
    func redirectNotFollowed(code: Int) async throws {
        try await TestHTTPServer.with { server in
            let error = await networkError { _ = try await client(server).send(Request<EchoReply>(path: "/redirect/\(code)")) }
            guard case .unexpectedStatus(let failure) = error else {
                Issue.record("expected unexpectedStatus, got \(String(describing: error))")
                return
            }
            #expect(failure.status.code == code)
            #expect(failure.headerFields[.location] == "/echo")
        }
    }

    @Test("the timeout bounds the whole exchange, not only the silence between packets")
    func totalTimeout() async throws {
        try await TestHTTPServer.with { server in
            // One byte every 100 ms for 60 s: never idle for long, far over the 500 ms timeout.
            let error = await networkError {
                _ = try await client(server, timeout: .milliseconds(500)).send(Request<Data>(path: "/trickle/600"))
            }
            guard case .timeout = error else {
                Issue.record("expected timeout, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("the default session configuration has no URLCache")
    func noURLCache() {
        let configuration = URLSessionTransport.defaultSessionConfiguration()
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
    }
}
