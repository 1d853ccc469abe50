import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("URL building")
struct URLBuildingTests {
    /// Sends `endpoint` through a client with `base` and returns the URL that reached the transport.
    private func sentURL(base: String?, _ endpoint: TestEndpoint) async throws -> String {
        let (client, transport) = makeClient(baseURL: base.flatMap(URL.init(string:)))
        try await client.request(endpoint)
        return try #require(transport.requests.first?.url?.absoluteString)
    }

    @Test(
        "a path on the client's base URL gives the very request the same base given by the endpoint gives",
        arguments: [
            "https://api.example.com", "https://api.example.com/", "https://api.example.com/v1/",
            "HTTPS://API.Example.COM:8443/v1", "http://127.0.0.1:8080/base%20path/", "http://[::1]:9000/v1",
            "https://user:secret@api.example.com/v1", "https://api.example.com/v1?key=abc", "https://api.example.com/v1?",
            "https://api.example.com/v1#fragment", "https://api.example.com/a%2Fb/",
        ],
        ["", "/", "films", "/films/", "films/toy story/ü", "/a/../b", "%41%2F"])
    func clientBaseMatchesEndpointBase(base: String, path: String) async throws {
        let baseURL = try #require(URL(string: base))
        let query = [URLQueryItem(name: "q", value: "a b&c=d"), URLQueryItem(name: "flag", value: nil)]
        for items in [nil, query] {
            let (onClient, onClientTransport) = makeClient(baseURL: baseURL)
            try await onClient.request(TestEndpoint(path: path, queryItems: items))
            let (onEndpoint, onEndpointTransport) = makeClient(baseURL: nil)
            try await onEndpoint.request(TestEndpoint(baseURL: baseURL, path: path, queryItems: items))
            let fromClient = try #require(onClientTransport.requests.first?.request)
            let fromEndpoint = try #require(onEndpointTransport.requests.first?.request)
            #expect(fromClient.scheme == fromEndpoint.scheme)
            #expect(fromClient.authority == fromEndpoint.authority)
            #expect(fromClient.path == fromEndpoint.path)
        }
    }

    @Test(
        "base URL and path join with exactly one slash",
        arguments: [
            ("https://api.example.com", "/films", "https://api.example.com/films"),
            ("https://api.example.com", "films", "https://api.example.com/films"),
            ("https://api.example.com/", "/films", "https://api.example.com/films"),
            ("https://api.example.com/v1", "/films", "https://api.example.com/v1/films"),
            ("https://api.example.com/v1", "films", "https://api.example.com/v1/films"),
            ("https://api.example.com/v1/", "/films", "https://api.example.com/v1/films"),
            ("https://api.example.com/v1/", "films/", "https://api.example.com/v1/films/"),
            ("https://api.example.com/v1", "", "https://api.example.com/v1"),
            ("https://api.example.com", "", "https://api.example.com/"),
            ("http://127.0.0.1:8080/api", "/a//b", "http://127.0.0.1:8080/api/a/b"),
        ])
    func joinsBaseAndPath(base: String, path: String, expected: String) async throws {
        #expect(try await sentURL(base: base, TestEndpoint(path: path)) == expected)
    }

    @Test(
        "characters that cannot appear in a path are escaped",
        arguments: [
            ("/films/toy story", "/v1/films/toy%20story"),
            // A '?' or '#' written in a path is refused (queryInPath); escaped as a segment, it is data.
            ("/films/\(PathSegment.escape("what?now"))", "/v1/films/what%3Fnow"),
            ("/films/\(PathSegment.escape("a#b"))", "/v1/films/a%23b"),
            ("/films/café", "/v1/films/caf%C3%A9"),
            ("/films/🎬", "/v1/films/%F0%9F%8E%AC"),
            ("/films/50%", "/v1/films/50%25"),
            ("/films/already%20escaped", "/v1/films/already%20escaped"),
            ("/users/me@example.com", "/v1/users/me@example.com"),
        ])
    func escapesPathCharacters(path: String, expectedPath: String) async throws {
        let url = try await sentURL(base: "https://api.example.com/v1", TestEndpoint(path: path))
        #expect(url == "https://api.example.com" + expectedPath)
    }

    @Test("dot segments are escaped so that an identifier cannot climb out of the path")
    func dotSegments() async throws {
        let literal = try await sentURL(base: "https://api.example.com/v1", TestEndpoint(path: "/films/../admin/."))
        #expect(literal == "https://api.example.com/v1/films/%2E%2E/admin/%2E")
        #expect(PathSegment.escape("..") == "%2E%2E")
        #expect(PathSegment.escape("a..b") == "a..b")
    }

    @Test("an absolute URL that cannot be parsed is an error, never a relative path")
    func unparsableAbsolutePath() async throws {
        let (client, transport) = makeClient()
        let error = await networkError { try await client.send(Request<Void>(path: "http://[::1")) }
        guard case .invalidURL = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "CR, LF, NUL or another control character in a path or absolute URL is invalidURL, with nothing sent",
        arguments: [
            "/films/up\r\nX-Injected: 1", "/films/up\n", "/films/\u{0}up", "/films/\u{7F}", "/films/\tup",
            "https://api.example.com/a\r\nb", "http://api.example.com/\u{0}",
        ])
    func controlCharacters(path: String) async throws {
        // Foundation's URL(string:) percent-encodes them, so the request went to a path nobody wrote.
        for base in [testBaseURL, nil] {
            let (client, transport) = makeClient(baseURL: base)
            let endpointError = await networkError { try await client.request(TestEndpoint(path: path)) }
            let requestError = await networkError { try await client.send(Request<Void>(path: path)) }
            for error in [endpointError, requestError] {
                guard case .invalidURL(let url, let reason)? = error else {
                    Issue.record("expected invalidURL, got \(String(describing: error))")
                    continue
                }
                #expect(!url.contains("\r") && !url.contains("\n"), "the message stays on one line: \(url)")
                #expect(reason.hasPrefix("it contains "))
            }
            #expect(transport.requests.isEmpty)
        }
        // A value that really holds them is escaped on purpose, and sent.
        let (client, transport) = makeClient()
        try await client.request(
            TestEndpoint(
                path: "/notes/\(PathSegment.escape("a\r\nb"))", queryItems: [URLQueryItem(name: "q", value: "line 1\nline 2")]))
        #expect(transport.requests.first?.request.path == "/v1/notes/a%0D%0Ab?q=line%201%0Aline%202")
    }

    @Test("PathSegment.escape keeps a slash inside one segment, escaped once")
    func escapedSegmentKeepsSlash() async throws {
        let path = "/files/\(PathSegment.escape("reports/2024 Q1%.pdf"))"
        let url = try await sentURL(base: "https://api.example.com", TestEndpoint(path: path))
        #expect(url == "https://api.example.com/files/reports%2F2024%20Q1%25.pdf")
    }

    @Test(
        "query values are escaped strictly",
        arguments: [
            ([URLQueryItem(name: "q", value: "a+b")], "q=a%2Bb"),
            ([URLQueryItem(name: "q", value: "a&b=c")], "q=a%26b%3Dc"),
            ([URLQueryItem(name: "q", value: "toy story")], "q=toy%20story"),
            ([URLQueryItem(name: "q", value: "Wall·E ✓")], "q=Wall%C2%B7E%20%E2%9C%93"),
            ([URLQueryItem(name: "q", value: "100%")], "q=100%25"),
            ([URLQueryItem(name: "a b", value: "1")], "a%20b=1"),
            ([URLQueryItem(name: "flag", value: nil)], "flag"),
            ([URLQueryItem(name: "empty", value: "")], "empty="),
            ([URLQueryItem(name: "id", value: "1"), URLQueryItem(name: "id", value: "2")], "id=1&id=2"),
        ])
    func escapesQueryValues(items: [URLQueryItem], expectedQuery: String) async throws {
        let url = try await sentURL(base: "https://api.example.com", TestEndpoint(path: "/search", queryItems: items))
        #expect(url == "https://api.example.com/search?" + expectedQuery)
    }

    @Test("an empty or missing query list adds no question mark", arguments: [nil, [URLQueryItem]()])
    func emptyQueryAddsNothing(items: [URLQueryItem]?) async throws {
        let url = try await sentURL(base: "https://api.example.com", TestEndpoint(path: "/films", queryItems: items))
        #expect(url == "https://api.example.com/films")
    }

    @Test("a query on the base URL is kept and the endpoint's is appended")
    func baseQueryIsKept() async throws {
        let url = try await sentURL(
            base: "https://api.example.com/v1?key=abc",
            TestEndpoint(path: "/films", queryItems: [URLQueryItem(name: "page", value: "2")]))
        #expect(url == "https://api.example.com/v1/films?key=abc&page=2")
    }

    @Test("an absolute endpoint base URL wins over the client's; a relative one is a prefix")
    func endpointBaseURL() async throws {
        let absolute = try await sentURL(
            base: "https://api.example.com/v1", TestEndpoint(baseURL: URL(string: "https://cdn.example.com/assets")!, path: "/logo.png"))
        #expect(absolute == "https://cdn.example.com/assets/logo.png")
        let relative = try await sentURL(base: "https://api.example.com", TestEndpoint(baseURL: URL(string: "/v2")!, path: "/films"))
        #expect(relative == "https://api.example.com/v2/films")
    }

    @Test("a typed request's absolute URL stands alone")
    func absoluteRequestPath() async throws {
        let (client, transport) = makeClient()
        try await client.send(Request<Void>(path: "https://other.example.com/x?y=1"))
        #expect(transport.requests.first?.url?.absoluteString == "https://other.example.com/x?y=1")
    }

    @Test(
        "a base URL that is not absolute HTTP fails before anything is sent",
        arguments: ["not a url", "api.example.com/v1", "ftp://files.example.com", "file:///etc/passwd", "https://"])
    func invalidBaseURL(base: String) async throws {
        let (client, transport) = makeClient(baseURL: URL(string: base))
        // A bad header too: the URL is checked first, so the URL is what is reported.
        let error = await networkError { try await client.request(TestEndpoint(path: "/films", headers: ["Bad Name": "v"])) }
        guard case .invalidURL(_, let reason) = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "a relative path holding '?' or '#' fails with invalidURL naming the fix, over a Request and an endpoint, nothing sent",
        arguments: ["/search?q=toy", "/films#top", "films/up?x"])
    func queryInPath(path: String) async throws {
        let (client, transport) = makeClient()
        for call in [{ try await client.send(Request<Void>(path: path)) }, { try await client.request(TestEndpoint(path: path)) }] {
            let error = await networkError { try await call() }
            guard case .invalidURL(let url, let reason) = error else {
                Issue.record("expected invalidURL, got \(String(describing: error))")
                continue
            }
            #expect(url == path)
            #expect(reason.contains("query items"))
        }
        #expect(transport.requests.isEmpty)
        // Escaped on purpose, a '?' belongs to its segment; an absolute URL keeps its own query.
        try await client.send(Request<Void>(path: "/files/\(PathSegment.escape("why?.txt"))"))
        try await client.send(Request<Void>(path: "https://other.example.com/search?q=toy"))
        #expect(
            transport.requests.map { $0.url?.absoluteString } == [
                "https://api.example.com/v1/files/why%3F.txt", "https://other.example.com/search?q=toy",
            ])
    }

    @Test("no base URL anywhere is an invalidURL error naming the fix")
    func missingBaseURL() async throws {
        let (client, transport) = makeClient(baseURL: nil)
        let error = await networkError { try await client.request(TestEndpoint(path: "/films")) }
        guard case .invalidURL(_, let reason) = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("baseURL"))
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "a query value or name holding CR, LF, NUL or a tab is data: percent-encoded as a browser does, over the fast path and the full one",
        arguments: [nil, "https://api.example.com/v1"])
    func controlCharactersInQueryAreEncoded(endpointBase: String?) async throws {
        let text = "line one\r\nline two\n\tend\0"
        let endpoint = TestEndpoint(
            baseURL: endpointBase.flatMap(URL.init(string:)) ?? URL(string: "/")!, path: "/search",
            queryItems: [URLQueryItem(name: "q", value: text), URLQueryItem(name: "a\nb", value: "1")])
        let url = try await sentURL(base: "https://api.example.com/v1", endpoint)
        #expect(url == "https://api.example.com/v1/search?q=line%20one%0D%0Aline%20two%0A%09end%00&a%0Ab=1")
        let decoded = URLComponents(string: url)?.queryItems
        #expect(decoded?.first?.value == text)
    }
}
