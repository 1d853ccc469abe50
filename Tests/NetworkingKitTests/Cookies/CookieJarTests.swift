import Foundation
import HTTPTypes
import NetworkingKitTesting
import Testing

@testable import NetworkingKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The jar as an app uses it: on an injected clock, in memory and in a file, and as a middleware
/// of a client on a stub transport (redirects, the caller's own cookies, origins).
@Suite("Cookie jar")
struct CookieJarTests {
    static func fields(_ setCookies: String...) -> HTTPFields {
        var fields = HTTPFields()
        for value in setCookies { fields.append(HTTPField(name: .setCookie, value: value)) }
        return fields
    }

    /// An answer that sets `cookies`.
    static func answer(_ status: HTTPResponse.Status = .ok, location: String? = nil, setting cookies: [String] = []) -> StubResponse {
        var response = StubResponse.status(status, headers: location.map { ["Location": $0] } ?? [:])
        for cookie in cookies { response.response.headerFields.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    @Test("expiry follows the injected clock")
    func expiryOnClock() async throws {
        let clock = ManualDate()
        let jar = CookieJar(now: clock.source)
        let url = URL(string: "https://example.com/")!
        try await jar.setCookies(from: Self.fields("a=1; Max-Age=3600", "b=2"), for: url)
        #expect(jar.cookies(for: url).map(\.name) == ["a", "b"])
        clock.advance(by: 3600)
        #expect(jar.cookies(for: url).map(\.name) == ["b"])
        #expect(jar.cookies.map(\.name) == ["b"])
    }

    @Test("insert and remove by hand; a cookie's description never shows its value")
    func manual() async throws {
        let jar = CookieJar()
        try await jar.insert(Cookie(name: "sid", value: "secret-value", domain: "Example.com", isSecure: true))
        let cookie = try #require(jar.cookies.first)
        #expect(cookie.domain == "example.com")
        #expect(!cookie.description.contains("secret-value"))
        #expect(cookie.description.contains("sid"))
        try await jar.removeAll { $0.name == "sid" }
        #expect(jar.cookies.isEmpty)
        for bad in [
            Cookie(name: "a", value: "b\r\nX-Injected: 1", domain: "example.com"), Cookie(name: "a;b", value: "c", domain: "example.com"),
            Cookie(name: "a", value: "b; c=d", domain: "example.com"), Cookie(name: "a", value: "b", domain: ""),
            Cookie(name: "a", value: "b", domain: "example.com", path: "x"),
        ] {
            await #expect(throws: NetworkError.self) { try await jar.insert(bad) }
        }
        #expect(jar.cookies.isEmpty)
    }

    @Test("a client with the jar: login sets a cookie, later calls send it, logout expires it")
    func sessionOverClient() async throws {
        let jar = CookieJar()
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            switch request.path {
            case "/v1/login": Self.answer(setting: ["session=s1; Path=/; HttpOnly; Secure; SameSite=Lax"])
            case "/v1/logout": Self.answer(setting: ["session=; Path=/; Max-Age=0"])
            default: .status(.noContent)
            }
        }
        try await client.send(Request<Void>(path: "/login", method: .post))
        try await client.send(Request<Void>(path: "/me"))
        try await client.send(Request<Void>(path: "/logout", method: .post))
        try await client.send(Request<Void>(path: "/me"))
        #expect(transport.requests.map { $0.header("Cookie") } == [nil, "session=s1", "session=s1", nil])
        let stored = jar.cookies
        #expect(stored.isEmpty)
    }

    @Test("the caller's own Cookie is kept and wins over a jar cookie of the same name")
    func callersCookie() async throws {
        let jar = CookieJar()
        try await jar.setCookies(from: Self.fields("a=jar", "b=jar"), for: URL(string: "https://api.example.com/")!)
        let (client, transport) = makeClient(middlewares: [jar])
        try await client.send(Request<Void>(path: "/x", headers: ["Cookie": "a=mine"]))
        #expect(transport.requests.first?.header("Cookie") == "a=mine; b=jar")
    }

    @Test("a nameless jar cookie merges with a caller's pair that has no =")
    func namelessMerge() async throws {
        let jar = CookieJar()
        try await jar.setCookies(from: Self.fields("opaque-token"), for: URL(string: "https://api.example.com/")!)
        let (client, transport) = makeClient(middlewares: [jar])
        try await client.send(Request<Void>(path: "/x", headers: ["Cookie": "legacy"]))
        // The caller's nameless value wins over the jar's nameless one, as a named pair would.
        #expect(transport.requests.first?.header("Cookie") == "legacy")
    }

    @Test("removeAll's predicate may read the jar: it runs outside the lock")
    func reentrantRemove() async throws {
        let jar = CookieJar()
        try await jar.setCookies(from: Self.fields("a=1", "b=2"), for: URL(string: "https://example.com/")!)
        try await jar.removeAll { cookie in jar.cookies.count == 2 && cookie.name == "a" }
        #expect(jar.cookies.map(\.name) == ["b"])
    }

    @Test("a server that sets a cookie and sends the client back to the same URL is no loop")
    func setAndReturn() async throws {
        let jar = CookieJar()
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            request.header("Cookie") == nil ? Self.answer(.found, location: "/v1/page", setting: ["consent=1"]) : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/page"))
        #expect(transport.requests.map { $0.header("Cookie") } == [nil, "consent=1"])
    }

    @Test("a login whose 302 rotates the session: the next hop carries the new one, not the caller's stale one")
    func rotatedOnRedirect() async throws {
        let jar = CookieJar()
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            request.path == "/v1/login"
                ? Self.answer(.found, location: "/v1/home", setting: ["session=new; Path=/"]) : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/login", headers: ["Cookie": "session=old; lang=en"]))
        #expect(transport.requests.map { $0.header("Cookie") } == ["session=old; lang=en", "lang=en; session=new"])
    }

    @Test("A to B and back to A: the caller's cookie stays removed, A's jar cookies come back")
    func backToFirstOrigin() async throws {
        let jar = CookieJar()
        try await jar.setCookies(from: Self.fields("a=jar"), for: URL(string: "https://api.example.com/")!)
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            switch (request.url?.host ?? "", request.path) {
            case ("api.example.com", "/v1/start"): .status(.found, headers: ["Location": "https://b.example.org/hop"])
            case ("b.example.org", _): .status(.found, headers: ["Location": "https://api.example.com/v1/end"])
            default: .status(.noContent)
            }
        }
        try await client.send(Request<Void>(path: "/start", headers: ["Cookie": "mine=1"]))
        #expect(transport.requests.map { $0.header("Cookie") } == ["mine=1; a=jar", nil, "a=jar"])
    }

    @Test("a cookie set by a 302 goes with the request it leads to")
    func cookieOnRedirect() async throws {
        let jar = CookieJar()
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            request.path == "/v1/login"
                ? Self.answer(.found, location: "/v1/home", setting: ["session=s1; Path=/"]) : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/login"))
        #expect(transport.requests.map { $0.header("Cookie") } == [nil, "session=s1"])
    }

    @Test("a redirect to another origin carries that origin's cookies only, never the first's or the caller's")
    func crossOriginRedirect() async throws {
        let jar = CookieJar()
        try await jar.setCookies(from: Self.fields("other=o1"), for: URL(string: "https://other.example.org/")!)
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            request.url?.host == "api.example.com"
                ? Self.answer(.found, location: "https://other.example.org/landing", setting: ["session=s1; Path=/"])
                : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/go", headers: ["Cookie": "mine=1"]))
        #expect(transport.requests.map { $0.header("Cookie") } == ["mine=1", "other=o1"])
        // The cookie the first origin set on its 302 was stored for it, and for it alone.
        #expect(jar.cookies(for: URL(string: "https://api.example.com/")!).map(\.name) == ["session"])
        #expect(jar.cookies(for: URL(string: "https://other.example.org/")!).map(\.name) == ["other"])
    }

    @Test("a hostile server's cookies are refused: for a public suffix, another domain, another address")
    func hostileServer() async throws {
        let jar = CookieJar()
        let (client, _) = makeClient(middlewares: [jar]) { _ in
            Self.answer(setting: [
                "a=1; Domain=com", "b=1; Domain=example.org", "c=1; Domain=127.0.0.1", "d=1; Domain=.example.com",
            ])
        }
        try await client.send(Request<Void>(path: "/x"))
        #expect(jar.cookies.map(\.name) == ["d"])
        #expect(jar.cookies.first?.isHostOnly == false)
    }

    @Test("the cache keys on the cookie the jar adds: one user's answer is not another's")
    func cachePartition() async throws {
        let storage = MemoryCacheStorage()
        let counter = Counter()
        let handler: StubTransport.Handler = { request in
            counter.increment()
            return .json(#"{"user":"\#(request.header("Cookie") ?? "none")"}"#, headers: ["Cache-Control": "private, max-age=60"])
        }
        let alice = CookieJar()
        try await alice.insert(Cookie(name: "session", value: "alice", domain: "api.example.com"))
        let bob = CookieJar()
        try await bob.insert(Cookie(name: "session", value: "bob", domain: "api.example.com"))
        let (aliceClient, _) = makeClient(middlewares: [alice, HTTPCache(storage: storage)], handler)
        let (bobClient, _) = makeClient(middlewares: [bob, HTTPCache(storage: storage)], handler)
        let first: String = try await aliceClient.send(Request(path: "/me"))
        let second: String = try await bobClient.send(Request(path: "/me"))
        let third: String = try await aliceClient.send(Request(path: "/me"))
        #expect(first.contains("alice") && third.contains("alice"))
        #expect(second.contains("bob"))
        #expect(counter.value == 2)
    }

    @Test("in a file: owner-only, survives a restart, session cookies only when asked, expired ones dropped")
    func file() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fileURL = folder.appendingPathComponent("sub/cookies.json")
        let clock = ManualDate()
        let url = URL(string: "https://example.com/")!
        do {
            let jar = try CookieJar(contentsOf: fileURL, now: clock.source)
            try await jar.setCookies(from: Self.fields("keep=1; Max-Age=600", "short=1; Max-Age=60", "session=1"), for: url)
        }
        var status = stat()
        #expect(stat(fileURL.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat(fileURL.deletingLastPathComponent().path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        clock.advance(by: 120)
        let reopened = try CookieJar(contentsOf: fileURL, now: clock.source)
        #expect(reopened.cookies.map(\.name) == ["keep"])

        let withSessions = try CookieJar(contentsOf: fileURL, keepsSessionCookies: true, now: clock.source)
        try await withSessions.setCookies(from: Self.fields("session=2"), for: url)
        let again = try CookieJar(contentsOf: fileURL, keepsSessionCookies: true, now: clock.source)
        #expect(Set(again.cookies.map(\.name)) == ["keep", "session"])
    }

    @Test("a file that is not a cookie file reads as an empty jar, and is replaced at the next change")
    func corruptFile() async throws {
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: fileURL) }
        try Data("{\"version\":1,\"cookies\":[{\"name\":".utf8).write(to: fileURL)
        let jar = try CookieJar(contentsOf: fileURL)
        #expect(jar.cookies.isEmpty)
        try await jar.setCookies(from: Self.fields("a=1; Max-Age=60"), for: URL(string: "https://example.com/")!)
        #expect(try CookieJar(contentsOf: fileURL).cookies.map(\.name) == ["a"])
    }

    @Test("cookies in a file are checked as an app's own: one with a CR is dropped, an upper-case domain lowercased")
    func fileEditedByHand() throws {
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let future = Date().timeIntervalSince1970 + 3600
        func entry(_ name: String, _ value: String, _ domain: String) -> String {
            #"{"name":"\#(name)","value":"\#(value)","domain":"\#(domain)","isHostOnly":true,"path":"/","expires":\#(future),"#
                + #""isSecure":false,"isHTTPOnly":false,"sameSite":"lax","created":0,"lastAccessed":0}"#
        }
        let text =
            #"{"version":1,"cookies":["# + entry("bad", "x\\r\\nX-Injected: 1", "example.com") + ","
            + entry("good", "1", "EXAMPLE.com") + "]}"
        try Data(text.utf8).write(to: fileURL)
        let jar = try CookieJar(contentsOf: fileURL)
        #expect(jar.cookies.map(\.name) == ["good"])
        #expect(jar.cookies(for: URL(string: "https://example.com/")!).map(\.name) == ["good"])
    }

    @Test("a file that cannot be written fails the save, not the call: the cookie is kept in memory")
    func unwritableFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jar = try CookieJar(contentsOf: folder.appendingPathComponent("blocker/cookies.json"))
        // A regular file where the jar's folder should be: no folder can be made there.
        try Data().write(to: folder.appendingPathComponent("blocker"))
        let (client, transport) = makeClient(middlewares: [jar]) { request in
            request.path == "/v1/login" ? Self.answer(setting: ["sid=1; Max-Age=60"]) : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/login"))
        try await client.send(Request<Void>(path: "/me"))
        #expect(transport.requests.last?.header("Cookie") == "sid=1")
        await #expect(throws: (any Error).self) {
            try await jar.setCookies(from: Self.fields("b=1; Max-Age=60"), for: URL(string: "https://example.com/")!)
        }
    }
}
