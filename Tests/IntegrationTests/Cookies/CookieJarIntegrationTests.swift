import DemoAPI
import Foundation
import HTTPTypes
import NetworkingKit
import Testing

/// The cookie jar against DemoAPI's cookie routes, the same over every transport: a session kept
/// in a cookie, cookies set on a redirect, and a redirect to another origin.
@Suite("Cookie jar over every transport", .timeLimit(.minutes(5)))
struct CookieJarIntegrationTests {
    struct Username: Decodable, Sendable, Equatable {
        let username: String
    }

    /// A client of `server` over `kind` with `jar` in its chain.
    static func client(_ server: DemoServer, _ kind: TransportKind, jar: CookieJar, baseURL: URL? = nil) -> LiveAPIClient {
        LiveAPIClient(
            configuration: .init(baseURL: baseURL ?? server.baseURL, transport: kind.transport, middlewares: [jar], timeout: .seconds(120)))
    }

    static let login = Request<Username>(
        path: "/cookies/login", method: .post, body: .json(["username": "woody", "password": "andy"]))

    @Test("login sets a session cookie, later calls send it, logout expires it", arguments: TransportKind.allCases)
    func session(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let jar = CookieJar()
            let client = Self.client(server, kind, jar: jar)
            let error = await networkError { _ = try await client.send(Request<Username>(path: "/cookies/me")) }
            #expect(error?.statusCode == 401)

            #expect(try await client.send(Self.login) == Username(username: "woody"))
            let session = try #require(jar.cookies.first { $0.name == "demo_session" })
            #expect(session.isHTTPOnly && session.sameSite == .lax && session.isHostOnly && session.expires != nil)
            #expect(session.domain == server.baseURL.host)
            #expect(try await client.send(Request<Username>(path: "/cookies/me")) == Username(username: "woody"))
            // demo_theme has Path=/cookies: sent there, not to /echo.
            let echo: Echo = try await client.send(Request(path: "/echo"))
            #expect(echo.headers["cookie"] == "demo_session=\(session.value)")

            try await client.send(Request<Void>(path: "/cookies/logout", method: .post))
            #expect(!jar.cookies.contains { $0.name == "demo_session" })
            let afterLogout = await networkError { _ = try await client.send(Request<Username>(path: "/cookies/me")) }
            #expect(afterLogout?.statusCode == 401)
        }
    }

    @Test(
        "a cookie set by a 302 goes with the next hop; a hop to another origin carries none of the first's",
        arguments: TransportKind.allCases)
    func redirects(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let jar = CookieJar()
            let client = Self.client(server, kind, jar: jar)
            _ = try await client.send(Self.login)
            let sameOrigin: Echo = try await client.send(
                Request(path: "/cookies/redirect", query: [URLQueryItem(name: "to", value: "/echo")]))
            #expect(sameOrigin.headers["cookie"]?.contains("demo_hop=1") == true)
            #expect(sameOrigin.headers["cookie"]?.contains("demo_session=") == true)

            // The same server under another name: another origin, whose cookies the jar keeps apart.
            var other = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
            other.host = server.baseURL.host == "localhost" ? "127.0.0.1" : "localhost"
            let otherEcho = try #require(other.url?.appendingPathComponent("echo"))
            let crossed: Echo = try await client.send(
                Request(
                    path: "/cookies/redirect", query: [URLQueryItem(name: "to", value: otherEcho.absoluteString)],
                    headers: ["Cookie": "mine=1"]))
            #expect(crossed.headers["cookie"] == nil)
            #expect(jar.cookies(for: otherEcho).isEmpty)
        }
    }

    @Test(
        "a hostile server's cookies are refused over the wire: a public suffix, another domain, Secure over http",
        arguments: TransportKind.allCases)
    func hostile(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let jar = CookieJar()
            let client = Self.client(server, kind, jar: jar)
            for attributes in ["Domain=com", "Domain=example.org", "Secure", "SameSite=None", "Domain=127.0.0.2"] {
                try await client.send(
                    Request<Void>(
                        path: "/cookies/set",
                        query: [
                            URLQueryItem(name: "name", value: "bad"), URLQueryItem(name: "value", value: "1"),
                            URLQueryItem(name: "attributes", value: attributes),
                        ]))
            }
            #expect(jar.cookies.isEmpty)
        }
    }

    @Test("a jar in a file carries a session across clients, as across runs", arguments: [TransportKind.asyncHTTPClient])
    func fileJar(kind: TransportKind) async throws {
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: fileURL) }
        try await withDemoServer { server in
            _ = try await Self.client(server, kind, jar: try CookieJar(contentsOf: fileURL)).send(Self.login)
            let later = Self.client(server, kind, jar: try CookieJar(contentsOf: fileURL))
            #expect(try await later.send(Request<Username>(path: "/cookies/me")) == Username(username: "woody"))
        }
    }
}

/// What goes on the wire: one `Cookie` line, as RFC 6265 §5.4 requires of HTTP/1.1, over every
/// transport.
@Suite("Cookie header on the wire", .timeLimit(.minutes(5)))
struct CookieHeaderOnWireTests {
    @Test("the jar's cookies and the caller's go in one Cookie line", arguments: TransportKind.allCases)
    func oneLine(kind: TransportKind) async throws {
        try await ByteFaultServer.withServer { server in
            let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let jar = CookieJar()
            try await jar.setCookies(
                from: HTTPFields([HTTPField(name: .setCookie, value: "a=1"), HTTPField(name: .setCookie, value: "b=2")]), for: base)
            let client = LiveAPIClient(
                configuration: .init(baseURL: base, transport: kind.transport, middlewares: [jar], timeout: .seconds(120)))
            let head: String = try await client.send(Request(path: "/request-head", headers: ["Cookie": "mine=0"]))
            let cookieLines = head.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("cookie:") }
            #expect(cookieLines.count == 1, "\(head)")
            #expect(cookieLines.first.map { $0.dropFirst("cookie:".count).trimmingCharacters(in: .whitespaces) } == "mine=0; a=1; b=2")
        }
    }
}
