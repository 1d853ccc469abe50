import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Credentials go only to the origins they were given for, seen from a server that names a host
/// of its own: in a page's `Link`, or as an endpoint's absolute URL.
@Suite("Credentials and origins")
struct PageCredentialTests {
    struct FixedTokenProvider: TokenProvider {
        func validToken() async throws -> AuthToken? { AuthToken(accessToken: "user-token") }
    }

    static let credentialNames = ["Authorization", "Cookie", "X-API-Key"]

    /// A client on `https://api.example.com/v1` with a token, an API key among the default
    /// headers (declared sensitive) and a harmless default header.
    private func client(
        authentication: AuthenticationMiddleware = AuthenticationMiddleware(tokenProvider: FixedTokenProvider()),
        _ handler: @escaping StubTransport.Handler
    ) -> (LiveAPIClient, StubTransport) {
        let transport = StubTransport(handler)
        var configuration = LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport)
        configuration.middlewares = [authentication]
        configuration.defaultHeaders = ["X-API-Key": "app-key", "X-Client": "tests"]
        configuration.redirectPolicy = RedirectPolicy(sensitiveHeaders: [HTTPField.Name("X-API-Key")!])
        return (LiveAPIClient(configuration: configuration), transport)
    }

    /// Pages linked through `hosts`: page N links to page N+1 on `hosts[N]` (1-based pages).
    private static func pages(through hosts: [String]) -> StubTransport.Handler {
        { request in
            let page = Int(request.query?.split(separator: "=").last ?? "1") ?? 1
            var headers = ["Content-Type": "application/json"]
            if page <= hosts.count {
                headers["Link"] = "<\(hosts[page - 1])/v1/items?page=\(page + 1)>; rel=\"next\""
            }
            return .data(Data("[\(page)]".utf8), headers: headers)
        }
    }

    @Test("a Link to another origin is fetched without the token, the cookie or the declared API key, and so is every page after it")
    func linkToAnotherOrigin() async throws {
        let (client, transport) = client(
            Self.pages(through: ["https://collector.example.net", "https://api.example.com"]))
        let first = Request<[Int]>(path: "/items", headers: ["Cookie": "session=1", "X-Trace": "t"])
        var items: [Int] = []
        for try await item in client.pages(following: first).items { items.append(item) }
        #expect(items == [1, 2, 3])

        let requests = transport.requests
        #expect(requests.map { $0.url?.host } == ["api.example.com", "collector.example.net", "api.example.com"])
        #expect(requests[0].header("Authorization") == "Bearer user-token")
        #expect(requests[0].header("Cookie") == "session=1")
        #expect(requests[0].header("X-API-Key") == "app-key")
        for request in requests.dropFirst() {
            for name in Self.credentialNames {
                #expect(request.header(name) == nil, "\(name) reached \(request.url?.absoluteString ?? "")")
            }
            #expect(request.header("X-Trace") == "t")
            #expect(request.header("X-Client") == "tests")
        }
    }

    @Test("a Link to the same origin, written another way, keeps every credential")
    func linkToSameOrigin() async throws {
        let (client, transport) = client(
            Self.pages(through: ["https://API.example.com:443", "https://api.example.com"]))
        var count = 0
        for try await _ in client.pages(following: Request<[Int]>(path: "/items", headers: ["Cookie": "s=1"])) { count += 1 }
        #expect(count == 3)
        for request in transport.requests {
            #expect(request.header("Authorization") == "Bearer user-token")
            #expect(request.header("Cookie") == "s=1")
            #expect(request.header("X-API-Key") == "app-key")
        }
    }

    @Test("a Link from https to http fails with invalidURL and is never fetched")
    func linkToHTTP() async throws {
        let (client, transport) = client(Self.pages(through: ["http://api.example.com"]))
        var pages = client.pages(following: Request<[Int]>(path: "/items")).makeAsyncIterator()
        _ = try await pages.next()
        let error = await networkError { _ = try await pages.next() }
        guard case .invalidURL(_, let reason)? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("https to http"))
        #expect(transport.requests.count == 1)
    }

    @Test("a first page redirected to another origin leaves the credentials behind for the pages after it")
    func firstPageRedirectedElsewhere() async throws {
        let (client, transport) = client { request in
            switch (request.url?.host, request.query) {
            case ("api.example.com", nil):
                return .status(.found, headers: ["Location": "https://mirror.example.org/v1/items"])
            case ("mirror.example.org", _):
                return .data(Data("[1]".utf8), headers: ["Link": "<https://api.example.com/v1/items?page=2>; rel=\"next\""])
            default:
                return .data(Data("[2]".utf8))
            }
        }
        var count = 0
        for try await _ in client.pages(following: Request<[Int]>(path: "/items")) { count += 1 }
        #expect(count == 2)
        let last = try #require(transport.requests.last)
        #expect(last.url?.host == "api.example.com")
        for name in Self.credentialNames { #expect(last.header(name) == nil, "\(name) was sent") }
    }

    @Test("the token and the declared default headers go only to the client's origin; an endpoint's own headers go where it says")
    func absoluteURLElsewhere() async throws {
        let (client, transport) = client { _ in .text("ok") }
        try await client.send(Request<Void>(path: "https://uploads.example.net/files"))
        try await client.send(Request<Void>(path: "https://uploads.example.net/files", headers: ["X-API-Key": "own"]))
        try await client.send(Request<Void>(path: "https://api.example.com/v1/absolute"))
        let requests = transport.requests
        #expect(requests[0].header("Authorization") == nil)
        #expect(requests[0].header("X-API-Key") == nil)
        #expect(requests[0].header("X-Client") == "tests")
        #expect(requests[1].header("X-API-Key") == "own")
        #expect(requests[2].header("Authorization") == "Bearer user-token")
        #expect(requests[2].header("X-API-Key") == "app-key")
    }

    @Test("AuthenticationMiddleware(origins:) sends the token to the origins named, and only to them")
    func namedOrigins() async throws {
        let authentication = AuthenticationMiddleware(
            tokenProvider: FixedTokenProvider(), origins: [URL(string: "https://uploads.example.net")!])
        let (client, transport) = client(authentication: authentication) { _ in .text("ok") }
        try await client.send(Request<Void>(path: "https://uploads.example.net/files"))
        try await client.send(Request<Void>(path: "http://uploads.example.net/files"))
        try await client.send(Request<Void>(path: "/films"))
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer user-token", nil, nil])
    }

    @Test("a client without a base URL sends the token with every request the app writes, and not to a page link elsewhere")
    func noBaseURL() async throws {
        let transport = StubTransport(Self.pages(through: ["https://collector.example.net"]))
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: nil, transport: transport, middlewares: [AuthenticationMiddleware(tokenProvider: FixedTokenProvider())]))
        var count = 0
        for try await _ in client.pages(following: Request<[Int]>(path: "https://api.example.com/v1/items")) { count += 1 }
        #expect(count == 2)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer user-token", nil])
    }
}
