import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// The redirect step's rules, on a stub transport: hops, loops, credentials across origins,
/// downgrades, method rewriting and one-shot bodies.
@Suite("Redirects")
struct RedirectPolicyTests {
    /// The redirect failure in `error`, or a test failure when it is anything else.
    func redirectFailure(_ error: NetworkError?, sourceLocation: SourceLocation = #_sourceLocation) throws -> RedirectFailure {
        guard case .redirectFailed(let failure)? = error else {
            Issue.record("expected redirectFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            throw RedirectTestError.unexpectedError
        }
        return failure
    }

    enum RedirectTestError: Error {
        case unexpectedError
    }

    /// A 3xx answer pointing at `location`.
    static func redirect(_ code: Int, to location: String) -> StubResponse {
        .status(HTTPResponse.Status(code: code), headers: ["Location": location])
    }

    /// Redirects every path under `/hop/N` to `/hop/N+1`, and `/end` answers 200.
    static let hops: StubTransport.Handler = { request in
        if request.path.hasSuffix("/end") { return .json(#"{"ok":true}"#) }
        let number = Int(request.path.split(separator: "/").last ?? "") ?? 0
        return redirect(302, to: "/v1/hop/\(number + 1)")
    }

    @Test("a relative Location is followed to the final answer, which is what the caller gets")
    func followsRelativeLocation() async throws {
        let (client, transport) = makeClient { request in
            request.path == "/v1/old" ? Self.redirect(301, to: "new?x=1") : .text("moved here")
        }
        let text: String = try await client.send(Request(path: "/old"))
        #expect(text == "moved here")
        #expect(
            transport.requests.map(\.url?.absoluteString) == [
                "https://api.example.com/v1/old", "https://api.example.com/v1/new?x=1",
            ])
    }

    @Test("at most 5 redirects by default: the sixth fails with tooManyRedirects")
    func maxHopsByDefault() async throws {
        let (client, transport) = makeClient(Self.hops)
        let error = await networkError { try await client.send(Request<Void>(path: "/hop/0")) }
        let failure = try redirectFailure(error)
        #expect(failure.reason == .tooManyRedirects(limit: 5))
        #expect(transport.requests.count == 6)
        #expect(failure.urls.count == 6)
        #expect(failure.response.status.code == 302)
        #expect(failure.request.url?.path == "/v1/hop/0")
    }

    @Test("the limit is configurable per client and per endpoint")
    func configurableLimit() async throws {
        let transport = StubTransport(Self.hops)
        var configuration = LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport)
        configuration.redirectPolicy = RedirectPolicy(maxRedirects: 2)
        let client = LiveAPIClient(configuration: configuration)
        let error = await networkError { try await client.send(Request<Void>(path: "/hop/0")) }
        let failure = try redirectFailure(error)
        #expect(failure.reason == .tooManyRedirects(limit: 2))
        #expect(transport.requests.count == 3)

        // An endpoint allowing more reaches the end: hop/0 … hop/3, then /end.
        let ending = StubTransport { request in
            request.path == "/v1/hop/3" ? Self.redirect(302, to: "/v1/end") : try await Self.hops(request)
        }
        configuration.transport = ending
        let endpoint = TestEndpoint(path: "/hop/0", options: RequestOptions(redirectPolicy: RedirectPolicy(maxRedirects: 4)))
        _ = try await LiveAPIClient(configuration: configuration).request(endpoint)
        #expect(ending.requests.count == 5)
    }

    @Test("redirects can be turned off: the 3xx reaches the caller as unexpectedStatus")
    func redirectsOff() async throws {
        let (client, transport) = makeClient { _ in Self.redirect(302, to: "/elsewhere") }
        let endpoint = TestEndpoint(path: "/x", options: RequestOptions(redirectPolicy: .disabled))
        let error = await networkError { try await client.request(endpoint) }
        guard case .unexpectedStatus(let failure)? = error else {
            Issue.record("expected unexpectedStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.status.code == 302)
        #expect(failure.headerFields[.location] == "/elsewhere")
        #expect(transport.requests.count == 1)
    }

    @Test("a loop is detected as soon as a URL comes round again")
    func loopDetected() async throws {
        let (client, transport) = makeClient { request in
            Self.redirect(302, to: request.path.hasSuffix("/a") ? "/v1/b" : "/v1/a")
        }
        let error = await networkError { try await client.send(Request<Void>(path: "/a")) }
        let failure = try redirectFailure(error)
        #expect(failure.reason == .loop)
        #expect(transport.requests.count == 2)
        #expect(failure.urls.map(\.path) == ["/v1/a", "/v1/b", "/v1/a"])
    }

    @Test("a change of origin removes credentials and declared headers, for good (a -> b -> b)")
    func credentialsStrippedAcrossOrigins() async throws {
        let transport = StubTransport { request in
            switch (request.url?.host, request.path) {
            case ("api.example.com", _): Self.redirect(307, to: "https://files.example.net/one")
            case (_, "/one"): Self.redirect(302, to: "/two")
            default: .text("done")
            }
        }
        var configuration = LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport)
        configuration.redirectPolicy = RedirectPolicy(sensitiveHeaders: [HTTPField.Name("X-API-Key")!])
        let endpoint = TestEndpoint(
            path: "/download",
            headers: [
                "Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic abc",
                "X-API-Key": "key", "X-Trace": "kept",
            ])
        let text = try await LiveAPIClient(configuration: configuration).request(endpoint, as: String.self)
        #expect(text == "done")

        let requests = transport.requests
        #expect(requests.count == 3)
        #expect(requests[0].header("Authorization") == "Bearer secret")
        #expect(requests[0].header("X-API-Key") == "key")
        for request in requests.dropFirst() {
            for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-API-Key"] {
                #expect(request.header(name) == nil, "\(name) reached \(request.url?.absoluteString ?? "")")
            }
            #expect(request.header("X-Trace") == "kept")
        }
    }

    @Test("credentials removed once stay removed when a later hop returns to the first origin")
    func credentialsStayRemoved() async throws {
        let transport = StubTransport { request in
            switch (request.url?.host, request.path) {
            case ("api.example.com", "/v1/start"): Self.redirect(302, to: "https://other.example.com/bounce")
            case ("other.example.com", _): Self.redirect(302, to: "https://api.example.com/v1/back")
            default: .text("back")
            }
        }
        let client = LiveAPIClient(baseURL: testBaseURL, transport: transport)
        _ = try await client.request(TestEndpoint(path: "/start", headers: ["Authorization": "Bearer secret"]), as: String.self)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer secret", nil, nil])
    }

    @Test("same origin keeps credentials; another port or scheme is another origin")
    func originIsSchemeHostAndPort() async throws {
        for (location, kept) in [
            ("https://API.example.com:443/v1/same", true),
            ("https://api.example.com:8443/v1/port", false),
            ("https://sub.api.example.com/v1/host", false),
        ] {
            let transport = StubTransport { request in
                request.path == "/v1/start" ? Self.redirect(302, to: location) : .text("ok")
            }
            let client = LiveAPIClient(baseURL: testBaseURL, transport: transport)
            _ = try await client.request(TestEndpoint(path: "/start", headers: ["Authorization": "Bearer t"]), as: String.self)
            #expect((transport.requests.last?.header("Authorization") != nil) == kept, "\(location)")
        }
    }

    @Test("https -> http is refused by default, and allowed only when the policy says so")
    func insecureRedirect() async throws {
        let (client, transport) = makeClient { request in
            request.url?.scheme == "https" ? Self.redirect(302, to: "http://api.example.com/v1/plain") : .text("plain")
        }
        let error = await networkError { try await client.send(Request<Void>(path: "/secure")) }
        let failure = try redirectFailure(error)
        #expect(failure.reason == .insecureRedirect)
        #expect(transport.requests.count == 1)
        #expect(error?.localizedDescription.contains("insecure") == true)

        let endpoint = TestEndpoint(
            path: "/secure", options: RequestOptions(redirectPolicy: RedirectPolicy(allowsInsecureRedirects: true)))
        #expect(try await client.request(endpoint, as: String.self) == "plain")
    }

    @Test(
        "301/302 turn POST into GET without a body; 303 turns anything but HEAD into GET; 307/308 keep both",
        arguments: [
            (301, "POST", "GET", false), (302, "POST", "GET", false), (303, "POST", "GET", false),
            (303, "PUT", "GET", false), (303, "HEAD", "HEAD", false), (302, "PUT", "PUT", true),
            (307, "POST", "POST", true), (308, "POST", "POST", true), (308, "PATCH", "PATCH", true),
        ])
    func methodRewriting(code: Int, method: String, expectedMethod: String, keepsBody: Bool) async throws {
        let (client, transport) = makeClient { request in
            request.path == "/v1/form" ? Self.redirect(code, to: "/v1/result") : .status(.noContent)
        }
        let endpoint = TestEndpoint(
            path: "/form", method: HTTPRequest.Method(method)!,
            requestBody: method == "HEAD" ? nil : .json(["name": "Woody"]))
        try await client.request(endpoint)

        let second = try #require(transport.requests.last)
        #expect(transport.requests.count == 2)
        #expect(second.method.rawValue == expectedMethod)
        if keepsBody {
            #expect(second.bodyText == #"{"name":"Woody"}"#)
            #expect(second.header("Content-Type") == "application/json")
        } else {
            #expect(second.body == nil || second.body?.isEmpty == true)
            #expect(second.header("Content-Type") == nil)
            #expect(second.header("Content-Length") == nil)
        }
    }

    @Test("307 with a one-shot streamed body fails clearly instead of sending half a body")
    func oneShotBodyCannotFollow307() async throws {
        let (client, transport) = makeClient { request in
            request.path == "/v1/upload" ? Self.redirect(307, to: "/v1/elsewhere") : .status(.noContent)
        }
        let chunks = CountingChunks(chunkSize: 4, chunkCount: 3, pulled: Counter())
        let endpoint = TestEndpoint(
            path: "/upload", method: .post,
            requestBody: .stream(HTTPBody(chunks, length: .known(12), iterationBehavior: .single)))
        let error = await networkError { try await client.request(endpoint) }
        let failure = try redirectFailure(error)
        #expect(failure.reason == .bodyNotReplayable)
        #expect(transport.requests.count == 1)
        #expect(error?.localizedDescription.contains("redirected") == true)
    }

    @Test("303 after a one-shot upload is fine: the follow-up is a GET with no body")
    func oneShotBodyThen303() async throws {
        let (client, transport) = makeClient { request in
            request.path == "/v1/upload" ? Self.redirect(303, to: "/v1/receipt") : .text("receipt")
        }
        let chunks = CountingChunks(chunkSize: 4, chunkCount: 3, pulled: Counter())
        let endpoint = TestEndpoint(
            path: "/upload", method: .post,
            requestBody: .stream(HTTPBody(chunks, length: .known(12), iterationBehavior: .single)))
        #expect(try await client.request(endpoint, as: String.self) == "receipt")
        #expect(transport.requests.map(\.method) == [.post, .get])
    }

    @Test("an unusable Location fails with invalidLocation", arguments: ["ftp://files.example.com/x", "http://", "   "])
    func invalidLocation(location: String) async throws {
        let (client, _) = makeClient { _ in Self.redirect(302, to: location) }
        let error = await networkError { try await client.send(Request<Void>(path: "/x")) }
        let failure = try redirectFailure(error)
        // HTTP field values lose their surrounding whitespace on the way in.
        #expect(failure.reason == .invalidLocation(location.trimmingCharacters(in: .whitespaces)))
    }

    @Test("a 3xx without Location, a 300 and a 304 are not followed", arguments: [(302, false), (300, true), (304, true)])
    func notFollowed(code: Int, withLocation: Bool) async throws {
        let (client, transport) = makeClient { _ in
            withLocation ? Self.redirect(code, to: "/v1/other") : .status(HTTPResponse.Status(code: code))
        }
        let error = await networkError { try await client.send(Request<Void>(path: "/x")) }
        #expect(error?.statusCode == code)
        #expect(transport.requests.count == 1)
    }

    @Test("middlewares see one call and the final answer, not the hops")
    func middlewaresSeeFinalAnswer() async throws {
        let log = Log()
        let (client, transport) = makeClient(middlewares: [TaggingMiddleware(name: "outer", log: log)]) { request in
            request.path == "/v1/a" ? Self.redirect(302, to: "/v1/b") : .text("final")
        }
        #expect(try await client.send(Request<String>(path: "/a")) == "final")
        #expect(transport.requests.count == 2)
        #expect(log.values == ["outer down", "outer up"])
    }

    @Test("an endpoint's own policy keeps the client's sensitive headers")
    func endpointPolicyKeepsClientSensitiveHeaders() async throws {
        let transport = StubTransport { request in
            request.url?.host == "api.example.com" ? Self.redirect(302, to: "https://cdn.example.net/file") : .text("ok")
        }
        var configuration = LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport)
        configuration.redirectPolicy = RedirectPolicy(sensitiveHeaders: [HTTPField.Name("X-API-Key")!])
        let endpoint = TestEndpoint(
            path: "/file", headers: ["X-API-Key": "key"], options: RequestOptions(redirectPolicy: RedirectPolicy(maxRedirects: 9)))
        _ = try await LiveAPIClient(configuration: configuration).request(endpoint, as: String.self)
        #expect(transport.requests.map { $0.header("X-API-Key") } == ["key", nil])
    }

    @Test("loop detection ignores letter case and default ports")
    func loopWithEquivalentURL() async throws {
        let (client, transport) = makeClient { request in
            request.path.hasSuffix("/a") ? Self.redirect(302, to: "HTTPS://API.example.com:443/v1/b") : Self.redirect(302, to: "/v1/a")
        }
        let error = await networkError { try await client.send(Request<Void>(path: "/a")) }
        let failure = try redirectFailure(error)
        #expect(failure.reason == .loop)
        #expect(transport.requests.count == 2)
    }

    @Test("the timeout covers every hop: each gets what is left of it")
    func timeoutAcrossHops() async throws {
        let transport = TimeoutRecordingTransport()
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport, timeout: .seconds(10)))
        _ = try await client.request(TestEndpoint(path: "/hop/0"))
        let timeouts = transport.timeouts.compactMap { $0 }
        #expect(timeouts.count == 4)
        #expect(timeouts.first == .seconds(10))
        for (earlier, later) in zip(timeouts, timeouts.dropFirst()) {
            #expect(later < earlier)
        }
    }
}

/// Answers `/v1/hop/N` with a redirect to N+1 until 3, and records the timeout each hop was given.
final class TimeoutRecordingTransport: HTTPTransport {
    private let recorded = LockedState<[Duration?]>([])

    var timeouts: [Duration?] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        recorded.withLock { $0.append(context.plan.timeout) }
        let number = Int(request.path?.split(separator: "/").last ?? "") ?? 0
        guard number < 3 else { return (HTTPResponse(status: .noContent), nil) }
        var fields = HTTPFields()
        fields[.location] = "/v1/hop/\(number + 1)"
        return (HTTPResponse(status: .found, headerFields: fields), nil)
    }
}
