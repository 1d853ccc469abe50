import DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// RFC 9111 rules of a private cache checked against a real server, over both transports: DemoAPI's
/// `/cache/{key}` answers with the header fields a test asks for and counts what reaches it, and
/// never answers a `Range` or a condition itself.
@Suite("HTTP cache conformance against DemoAPI", .timeLimit(.minutes(3)))
struct CacheConformanceIntegrationTests {
    /// Remembers the last answer that came out of the cache, also one the client reports as an error (a 304).
    final class LastAnswer: Middleware {
        private let answer = LockedState<(response: HTTPResponse, cacheStatus: CacheStatus?)?>(nil)
        var last: (response: HTTPResponse, cacheStatus: CacheStatus?)? { answer.withLock { $0 } }

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
        ) async throws -> HTTPAnswer {
            let answer = try await next(request, body, context)
            self.answer.withLock { $0 = (answer.response, answer.cacheStatus) }
            return answer
        }
    }

    struct Fixture {
        let client: LiveAPIClient
        /// The cache's "now", from the real time at the start (the server's `Date`s are real), moved
        /// by hand so that entries go stale without waiting.
        let now = ManualDate(Date())
        let last = LastAnswer()
        let server: DemoServer

        init(_ server: DemoServer, _ kind: TransportKind) {
            self.server = server
            let now = self.now
            client = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: server.baseURL, transport: kind.transport,
                    middlewares: [last, HTTPCache(storage: MemoryCacheStorage(), now: now.source)]))
        }

        /// How many requests for `key` reached the server.
        func served(_ key: String) -> Int { server.stats.snapshot.faultAttempts["cache/\(key)"] ?? 0 }
    }

    /// `/cache/{key}` answering `status` with `fields`, closing connections after `dropAfter` requests.
    static func script(_ key: String, _ fields: [String], status: Int = 200, dropAfter: Int? = nil) -> Request<Data> {
        var query = [URLQueryItem(name: "status", value: String(status))] + fields.map { URLQueryItem(name: "h", value: $0) }
        if let dropAfter { query.append(URLQueryItem(name: "drop_after", value: String(dropAfter))) }
        return Request(path: "/cache/\(key)", query: query)
    }

    @Test(
        "RFC 9111 §5.3: an Expires with runs of spaces is not a date, so already stale; RFC 9110 §5.6.7: names in any case are read",
        arguments: TransportKind.allCases)
    func expiresParsing(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            let spaced = Self.script("spaced", ["Expires:Thu, 18  Aug  2050 02:01:18 GMT"])
            let anyCase = Self.script("case", ["Expires:THU, 18 AUG 2050 02:01:18 gMT"])
            for request in [spaced, spaced, anyCase, anyCase] { _ = try await fixture.client.send(request) }
            #expect(fixture.served("spaced") == 2)
            #expect(fixture.served("case") == 1)
        }
    }

    @Test(
        "RFC 8246 §2: a fresh immutable response answers a reload (max-age=0); RFC 9110 §12.5.4: a stored language the request prefers most answers it",
        arguments: TransportKind.allCases)
    func immutableAndPreferredLanguage(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var reload = Self.script("immutable", ["Cache-Control:max-age=10000, immutable", #"ETag:"abcd""#])
            _ = try await fixture.client.send(reload)
            // Ten seconds on: older than a reload's max-age=0 accepts, still fresh.
            fixture.now.advance(by: 10)
            reload.headers["Cache-Control"] = "max-age=0"
            #expect(try await fixture.client.response(reload).cacheStatus == .hit)
            #expect(fixture.served("immutable") == 1)

            var german = Self.script("lang", ["Cache-Control:max-age=5000", "Vary:Accept-Language", "Content-Language:de"])
            german.headers["Accept-Language"] = "en, de"
            _ = try await fixture.client.send(german)
            german.headers["Accept-Language"] = "fr;q=0.5, de;q=1.0"
            #expect(try await fixture.client.response(german).cacheStatus == .hit)
            german.headers["Accept-Language"] = "fr, de;q=0.5"
            #expect(try await fixture.client.response(german).cacheStatus == .miss)
            #expect(fixture.served("lang") == 2)
        }
    }

    @Test(
        "RFC 9110 §9.3.3: a POST answered with freshness and its own URL as Content-Location answers the next GET",
        arguments: TransportKind.allCases)
    func postAnswerReused(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var get = Self.script("posted", ["Cache-Control:max-age=3600"])
            get.query.append(URLQueryItem(name: "self_location", value: "1"))
            var post = get
            post.method = .post
            post.body = .text("12345")
            _ = try await fixture.client.send(post)
            let listed = try await fixture.client.response(get)
            #expect(listed.cacheStatus == .hit)
            #expect(String(decoding: listed.value, as: UTF8.self) == "posted #1")
            #expect(fixture.served("posted") == 1)
        }
    }

    @Test(
        "RFC 9111 §3.4: a stored part of a file is completed with one range request for the rest, then served whole",
        arguments: TransportKind.allCases)
    func storedPartCompleted(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var request = Request<Data>(path: "/files/300000", query: [URLQueryItem(name: "seed", value: "21")])
            request.headers["Range"] = "bytes=0-99999"
            #expect(try await fixture.client.send(request).count == 100_000)
            request.headers["Range"] = nil
            let whole = try await fixture.client.response(request)
            #expect(whole.status == .ok)
            #expect(whole.value == splitMix64Bytes(seed: 21, count: 300_000))
            #expect(try await fixture.client.response(request).cacheStatus == .hit)
            // The part, the rest, and nothing more.
            #expect(server.stats.count("GET /files/{n}") == 2)
        }
    }

    @Test(
        "RFC 9111 §7.3: Set-Cookie does not inhibit storing; it is replayed in the user's own partition, never from the shared one",
        arguments: TransportKind.allCases)
    func setCookie(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var request = Self.script("cookie", ["Cache-Control:max-age=3600", "Set-Cookie:a=c"])
            request.headers["Authorization"] = "Bearer alice"
            _ = try await fixture.client.response(request)
            let hit = try await fixture.client.response(request)
            #expect(hit.cacheStatus == .hit)
            #expect(hit.headerFields[.setCookie] == "a=c")
            #expect(fixture.served("cookie") == 1)

            let shared = Self.script("shared-cookie", ["Cache-Control:public, max-age=3600", "Set-Cookie:session=first-user"])
            #expect(try await fixture.client.response(shared).headerFields[.setCookie] == "session=first-user")
            let other = try await fixture.client.response(shared)
            #expect(other.cacheStatus == .hit)
            #expect(other.headerFields[.setCookie] == nil)
            #expect(fixture.served("shared-cookie") == 1)
        }
    }

    @Test("RFC 9111 §3.2, §4.3.4: a 304 that sends a new Set-Cookie replaces the stored one", arguments: TransportKind.allCases)
    func setCookieFrom304(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var request = Self.script("cookie304", ["Cache-Control:no-cache", "ETag:\"v1\"", "Set-Cookie:a=1"])
            request.query += ["ETag:\"v1\"", "Set-Cookie:a=2"].map { URLQueryItem(name: "h304", value: $0) }
            let first = try await fixture.client.response(request)
            #expect(first.headerFields[.setCookie] == "a=1")
            // no-cache: each use is revalidated; the origin's 304 brings the new cookie.
            let second = try await fixture.client.response(request)
            #expect(second.cacheStatus == .revalidated)
            #expect(second.headerFields[.setCookie] == "a=2")
            #expect(second.value == first.value)
            let third = try await fixture.client.response(request)
            #expect(third.headerFields[.setCookie] == "a=2")
            #expect(fixture.served("cookie304") == 3)
            #expect(server.stats.snapshot.conditional["GET /cache/{key}"] == 2)
        }
    }

    @Test(
        "RFC 9111 §4.3.2: the caller's If-None-Match and If-Modified-Since are answered 304 from a fresh entry",
        arguments: TransportKind.allCases)
    func callerConditions(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            let lastModified = HTTPDate.format(Date() - 5000)
            var request = Self.script("conditional", ["Cache-Control:max-age=3600", "ETag:\"abcdef\"", "Last-Modified:\(lastModified)"])
            _ = try await fixture.client.send(request)
            for (name, value) in [("If-None-Match", "W/\"abcdef\""), ("If-Modified-Since", lastModified)] {
                request.headers = [name: value]
                await #expect(throws: NetworkError.self) { try await fixture.client.send(request) }
                #expect(fixture.last.last?.response.status == .notModified, "\(name)")
                #expect(fixture.last.last?.response.headerFields[.eTag] == "\"abcdef\"")
                #expect(fixture.last.last?.cacheStatus == .hit)
            }
            request.headers = ["If-None-Match": "\"other\""]
            #expect(try await fixture.client.response(request).value == Data("conditional #1".utf8))
            #expect(fixture.served("conditional") == 1)
        }
    }

    @Test(
        "RFC 9111 §3.4, RFC 9110 §14.2: a single Range is answered 206 from a fresh stored 200, with its stored fields",
        arguments: TransportKind.allCases)
    func range(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var request = Self.script("range", ["Cache-Control:max-age=3600", "A:1"])
            request.query.append(URLQueryItem(name: "body", value: "0123456789"))
            _ = try await fixture.client.send(request)
            request.headers = ["Range": "bytes=2-4"]
            let part = try await fixture.client.response(request)
            #expect(part.status == .partialContent)
            #expect(part.value == Data("234".utf8))
            #expect(part.headerFields[.contentRange] == "bytes 2-4/10")
            #expect(part.headerFields[HTTPField.Name("A")!] == "1")
            request.headers = ["Range": "bytes=-3"]
            #expect(try await fixture.client.response(request).value == Data("789".utf8))
            #expect(fixture.served("range") == 1)
        }
    }

    @Test(
        "RFC 9111 §3.3, §3.4: a 206 for the whole body is stored as the 200 it is, and answers a plain GET and another range",
        arguments: TransportKind.allCases)
    func storesWholeRange(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var request = Self.script("whole", ["Cache-Control:max-age=3600", "Content-Range:bytes 0-9/10"], status: 206)
            request.query.append(URLQueryItem(name: "body", value: "0123456789"))
            request.headers = ["Range": "bytes=0-"]
            let first = try await fixture.client.response(request)
            #expect(first.status == .partialContent)
            // The same URL asked for whole, then in part: both from the stored answer.
            request.headers = [:]
            let whole = try await fixture.client.response(request)
            #expect(whole.status == .ok)
            #expect(whole.value == Data("0123456789".utf8))
            #expect(whole.cacheStatus == .hit)
            request.headers = ["Range": "bytes=5-"]
            let part = try await fixture.client.response(request)
            #expect(part.value == Data("56789".utf8))
            #expect(part.headerFields[.contentRange] == "bytes 5-9/10")
            #expect(fixture.served("whole") == 1)
        }
    }

    @Test(
        "RFC 9111 §4.2.4, §5.2.2.2: while the origin is unreachable a stale entry is served, a must-revalidate one never (504)",
        arguments: TransportKind.allCases)
    func disconnected(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            let plain = Self.script("plain", ["Cache-Control:max-age=2"], dropAfter: 1)
            let strict = Self.script("strict", ["Cache-Control:max-age=2, must-revalidate"], dropAfter: 1)
            _ = try await fixture.client.send(plain)
            _ = try await fixture.client.send(strict)
            fixture.now.advance(by: 10)
            let stale = try await fixture.client.response(plain)
            #expect(stale.cacheStatus == .stale)
            #expect(stale.value == Data("plain #1".utf8))
            let refused = await #expect(throws: NetworkError.self) { try await fixture.client.send(strict) }
            #expect(refused?.statusCode == 504, "got \(String(describing: refused))")
            // libcurl (URLSession on Linux) sends a request once more on a fresh connection when a
            // reused one closes without an answer, so the origin may see the revalidation twice.
            #expect((2...3).contains(fixture.served("plain")))
            #expect((2...3).contains(fixture.served("strict")))
        }
    }

    @Test(
        "RFC 9111 §4.1: Vary values are normalised (Accept-Language case, order and spaces); §3.5: a public entry answers a request with Cookie",
        arguments: TransportKind.allCases)
    func varyAndPublic(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            var varying = Self.script("vary", ["Cache-Control:max-age=3600", "Vary:Accept-Language"])
            for languages in ["en, de", "de, en", "eN, De", " en ,   de"] {
                varying.headers = ["Accept-Language": languages]
                _ = try await fixture.client.send(varying)
            }
            varying.headers = ["Accept-Language": "fr"]
            _ = try await fixture.client.send(varying)
            #expect(fixture.served("vary") == 2)

            var shared = Self.script("public", ["Cache-Control:max-age=3600, public"])
            _ = try await fixture.client.send(shared)
            shared.headers = ["Cookie": "session=abc"]
            #expect(try await fixture.client.response(shared).cacheStatus == .hit)
            var plain = Self.script("plain", ["Cache-Control:max-age=3600"])
            _ = try await fixture.client.send(plain)
            plain.headers = ["Cookie": "session=abc"]
            #expect(try await fixture.client.response(plain).cacheStatus == .miss)
            #expect(fixture.served("public") == 1)
            #expect(fixture.served("plain") == 2)
        }
    }

    @Test(
        "RFC 9111 §4.2.2: public gives a heuristic lifetime to any status; §5.2.2.3: must-understand overrides no-store for a known status",
        arguments: TransportKind.allCases)
    func publicAndMustUnderstand(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let fixture = Fixture(server, kind)
            let lastModified = HTTPDate.format(Date() - 86_400)
            let unknown = Self.script("public-599", ["Cache-Control:public", "Last-Modified:\(lastModified)"], status: 599)
            let understood = Self.script("understood", ["Cache-Control:max-age=3600, no-store, must-understand"])
            let notUnderstood = Self.script("not-understood", ["Cache-Control:max-age=3600, no-store, must-understand"], status: 599)
            for request in [unknown, unknown, understood, understood, notUnderstood, notUnderstood] {
                _ = try? await fixture.client.send(request)
            }
            #expect(fixture.served("public-599") == 1)
            #expect(fixture.served("understood") == 1)
            #expect(fixture.served("not-understood") == 2)
        }
    }
}
