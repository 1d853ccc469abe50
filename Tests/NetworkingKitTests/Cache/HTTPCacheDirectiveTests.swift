import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Response and request Cache-Control directives (RFC 9111 §5.2).
@Suite("HTTPCache directives")
struct HTTPCacheDirectiveTests {
    @Test("no-store in the response: never stored")
    func responseNoStore() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "no-store, max-age=100"])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .miss)
        #expect((await harness.storage.all()).isEmpty)
        #expect(harness.networkCount == 2)
    }

    @Test("no-store in the request: the answer is not stored")
    func requestNoStore() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100"])]))
        try await harness.send(headers: ["Cache-Control": "no-store"])
        #expect((await harness.storage.all()).isEmpty)
    }

    @Test("immutable (RFC 8246 §2): a fresh immutable response answers a reload (max-age=0); no-cache and staleness validate")
    func immutableSkipsReloadValidation() async throws {
        let harness = CacheHarness { _ in ok("a", ["Cache-Control": "max-age=100, immutable", "ETag": "\"v1\""]) }
        try await harness.send()
        // Ten seconds old: older than a reload's max-age=0 accepts.
        harness.clock.advance(by: 10)
        #expect(try await harness.send(headers: ["Cache-Control": "max-age=0"]).cacheStatus == .hit)
        #expect(harness.networkCount == 1)
        #expect(try await harness.send(headers: ["Cache-Control": "no-cache"]).cacheStatus != .hit)
        #expect(harness.networkCount == 2)
        harness.clock.advance(by: 200)
        #expect(try await harness.send(headers: ["Cache-Control": "max-age=0"]).cacheStatus != .hit)
        #expect(harness.networkCount == 3)

        let plain = CacheHarness { _ in ok("a", ["Cache-Control": "max-age=100", "ETag": "\"v1\""]) }
        try await plain.send()
        plain.clock.advance(by: 10)
        #expect(try await plain.send(headers: ["Cache-Control": "max-age=0"]).cacheStatus != .hit)
        #expect(plain.networkCount == 2)
    }

    @Test("RFC 9110 §9.3.3: a POST's answer with explicit freshness and its own URL as Content-Location answers later GETs")
    func postAnswerWithOwnContentLocation() async throws {
        for (fields, reused) in [
            (["Cache-Control": "max-age=3600", "Content-Location": "https://api.example.com/films"], true),
            (["Cache-Control": "max-age=3600", "Content-Location": "/films"], true),
            (["Cache-Control": "max-age=3600", "Content-Location": "/films/1"], false),
            (["Content-Location": "/films", "Last-Modified": "Sat, 01 Jun 2024 00:00:00 GMT"], false),
            (["Cache-Control": "max-age=3600, no-store", "Content-Location": "/films"], false),
        ] {
            let harness = CacheHarness { request in ok(request.method == .post ? "created" : "listed", fields) }
            let posted = try await harness.send(.post)
            #expect(posted.body == "created")
            let listed = try await harness.send()
            #expect((listed.cacheStatus == .hit) == reused, "\(fields)")
            #expect(listed.body == (reused ? "created" : "listed"), "\(fields)")
        }
    }

    @Test(
        "directive names match in any case and spacing; a quoted argument's commas and escapes are its own",
        arguments: [
            "MAX-AGE=100 ,  Private", "\tmax-age=100,,", "private=\"Set-Cookie, X-Other\", max-age=100",
            "no-transform=\"a\\\"b, no-store\", max-age=100", "x-note=café , Max-Age = 100\t",
        ])
    func directiveSpelling(cacheControl: String) async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": cacheControl])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .hit, "\(cacheControl)")
        #expect(harness.networkCount == 1)
    }

    @Test("private responses are stored (this is a private cache)")
    func privateStored() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "private, max-age=100"])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .hit)
    }

    @Test("s-maxage is ignored")
    func sMaxAgeIgnored() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "s-maxage=100"])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .miss)
    }

    @Test("no-cache in the response: stored, but revalidated before every use")
    func responseNoCache() async throws {
        let harness = CacheHarness(
            scripted([ok("a", ["Cache-Control": "no-cache, max-age=100", "ETag": "\"1\""]), .status(.notModified)]))
        try await harness.send()
        let second = try await harness.send()
        #expect(second.cacheStatus == .revalidated)
        #expect(second.body == "a")
        #expect(harness.transport.requests.last?.header("If-None-Match") == "\"1\"")
    }

    @Test(
        "no-cache in the request (or Pragma: no-cache) forces revalidation of a fresh entry",
        arguments: [["Cache-Control": "no-cache"], ["Pragma": "no-cache"]])
    func requestNoCache(headers: [String: String]) async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "ETag": "\"1\""]), .status(.notModified)]))
        try await harness.send()
        let second = try await harness.send(headers: headers)
        #expect(second.cacheStatus == .revalidated)
        #expect(harness.networkCount == 2)
    }

    @Test("Request max-age caps the acceptable age")
    func requestMaxAge() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "ETag": "\"1\""]), .status(.notModified)]))
        try await harness.send()
        harness.clock.advance(by: 30)
        #expect(try await harness.send(headers: ["Cache-Control": "max-age=30"]).cacheStatus == .hit)
        #expect(try await harness.send(headers: ["Cache-Control": "max-age=29"]).cacheStatus == .revalidated)
    }

    @Test("Request min-fresh asks for time to spare")
    func requestMinFresh() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100"])]))
        try await harness.send()
        harness.clock.advance(by: 50)
        #expect(try await harness.send(headers: ["Cache-Control": "min-fresh=50"]).cacheStatus == .hit)
        #expect(try await harness.send(headers: ["Cache-Control": "min-fresh=51"]).cacheStatus == .miss)
    }

    @Test("Request max-stale accepts a stale entry, bare or within its bound")
    func requestMaxStale() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=10"])]))
        try await harness.send()
        harness.clock.advance(by: 30)
        #expect(try await harness.send(headers: ["Cache-Control": "max-stale=20"]).cacheStatus == .stale)
        #expect(try await harness.send(headers: ["Cache-Control": "max-stale"]).cacheStatus == .stale)
        #expect(harness.networkCount == 1)
        #expect(try await harness.send(headers: ["Cache-Control": "max-stale=19"]).cacheStatus == .miss)
    }

    @Test("must-revalidate: a stale entry is not served with max-stale")
    func mustRevalidateIgnoresMaxStale() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=10, must-revalidate"])]))
        try await harness.send()
        harness.clock.advance(by: 30)
        #expect(try await harness.send(headers: ["Cache-Control": "max-stale"]).cacheStatus == .miss)
    }

    @Test("must-revalidate: never served stale when revalidation fails")
    func mustRevalidateNotServedOnFailure() async throws {
        let failing = LockedState(false)
        let harness = CacheHarness { _ in
            if failing.withLock({ $0 }) { throw NetworkDown() }
            return ok("a", ["Cache-Control": "max-age=10, must-revalidate, stale-if-error=1000", "ETag": "\"1\""])
        }
        try await harness.send()
        harness.clock.advance(by: 30)
        failing.withLock { $0 = true }
        await #expect(throws: NetworkDown.self) { try await harness.send() }
    }

    @Test("must-revalidate: a 5xx from the revalidation is forwarded, not the stale entry")
    func mustRevalidateForwards5xx() async throws {
        let harness = CacheHarness(
            scripted([ok("a", ["Cache-Control": "max-age=10, must-revalidate", "ETag": "\"1\""]), .status(.serviceUnavailable)]))
        try await harness.send()
        harness.clock.advance(by: 30)
        #expect(try await harness.send().response.status == .serviceUnavailable)
    }

    @Test("only-if-cached: a 504 when nothing usable is stored, the entry when it is")
    func onlyIfCached() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=10"])]))
        #expect(try await harness.send(headers: ["Cache-Control": "only-if-cached"]).response.status == .gatewayTimeout)
        #expect(harness.networkCount == 0)
        try await harness.send()
        #expect(try await harness.send(headers: ["Cache-Control": "only-if-cached"]).cacheStatus == .hit)
        harness.clock.advance(by: 30)
        #expect(try await harness.send(headers: ["Cache-Control": "only-if-cached"]).response.status == .gatewayTimeout)
        #expect(harness.networkCount == 1)
    }

    @Test("Hop-by-hop fields and the ones Connection names are not stored")
    func hopByHop() async throws {
        let headers = [
            "Cache-Control": "max-age=100", "Connection": "close, X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
            "Transfer-Encoding": "chunked", "Proxy-Authenticate": "Basic", "Upgrade": "h2c", "Trailer": "X-T",
            "TE": "trailers", "X-Kept": "yes",
        ]
        let harness = CacheHarness(scripted([ok("a", headers)]))
        try await harness.send()
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        let stored = try #require((await harness.storage.all()).values.first?.first).response.headerFields
        let names = Set(stored.map { $0.name.canonicalName })
        for name in ["connection", "x-hop", "keep-alive", "transfer-encoding", "proxy-authenticate", "upgrade", "trailer", "te"] {
            #expect(!names.contains(name), "\(name) stored")
        }
        #expect(hit.response.header("X-Kept") == "yes")
    }
}
