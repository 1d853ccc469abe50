import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// What is stored and when: `Set-Cookie`, statuses without freshness, `Vary` updated by a `304`,
/// bodies over the size limit, `only-if-cached` with `stale-while-revalidate`.
@Suite("HTTPCache storing rules")
struct HTTPCacheStoredFieldsTests {
    @Test(
        "Set-Cookie and Set-Cookie2 are stored in a credential's partition and replayed to its user on a hit (RFC 9111 §7.3), and kept out of logs"
    )
    func setCookieStored() async throws {
        let harness = CacheHarness(
            scripted([ok("a", ["Cache-Control": "max-age=100", "Set-Cookie": "id=1", "Set-Cookie2": "id=1"])]))
        let user = ["Authorization": "Bearer alice"]
        let miss = try await harness.send(headers: user)
        #expect(miss.response.header("Set-Cookie") == "id=1")
        let hit = try await harness.send(headers: user)
        #expect(hit.cacheStatus == .hit)
        #expect(hit.response.header("Set-Cookie") == "id=1")
        #expect(hit.response.header("Set-Cookie2") == "id=1")
        #expect(harness.networkCount == 1)
        let redacted = Redaction.default.redact(hit.response.headerFields)
        #expect(redacted[HTTPField.Name("Set-Cookie")!] == Redaction.placeholder)
        #expect(redacted[HTTPField.Name("Set-Cookie2")!] == Redaction.placeholder)
    }

    @Test("a server's own X-Cache (a CDN's) reaches the caller as sent, on the miss and on the hit; the status is the cache's")
    func serversXCacheKept() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "X-Cache": "HIT from cdn"])]))
        let miss = try await harness.send()
        #expect(miss.response.header("X-Cache") == "HIT from cdn")
        #expect(miss.cacheStatus == .miss)
        let hit = try await harness.send()
        #expect(hit.response.header("X-Cache") == "HIT from cdn")
        #expect(hit.cacheStatus == .hit)
        #expect(harness.networkCount == 1)
    }

    @Test("RFC 9111 §3.2, §4.3.4: a 304's Set-Cookie replaces the one stored in the user's partition; a 304 without one keeps it")
    func setCookieFrom304() async throws {
        let harness = CacheHarness(
            scripted([
                ok("a", ["Cache-Control": "max-age=10", "ETag": "\"1\"", "Set-Cookie": "id=1"]),
                .status(.notModified, headers: ["ETag": "\"1\"", "Set-Cookie": "id=2", "Cache-Control": "max-age=10"]),
                .status(.notModified, headers: ["ETag": "\"1\"", "Cache-Control": "max-age=10"]),
            ]))
        let user = ["Authorization": "Bearer alice"]
        try await harness.send(headers: user)
        harness.clock.advance(by: 20)
        let revalidated = try await harness.send(headers: user)
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(revalidated.response.header("Set-Cookie") == "id=2")
        let hit = try await harness.send(headers: user)
        #expect(hit.cacheStatus == .hit)
        #expect(hit.response.header("Set-Cookie") == "id=2")
        harness.clock.advance(by: 20)
        let again = try await harness.send(headers: user)
        #expect(again.cacheStatus == .revalidated)
        #expect(again.response.header("Set-Cookie") == "id=2")
        #expect(harness.networkCount == 3)
    }

    @Test("A 500 marked private is not stored over a good entry, which stale-if-error can still use")
    func privateErrorNotStored() async throws {
        let failing = LockedState(false)
        let responses = scripted([
            ok("good", ["Cache-Control": "max-age=10"]),
            .status(.internalServerError, headers: ["Cache-Control": "private"]),
        ])
        let harness = CacheHarness { request in
            if failing.withLock({ $0 }) { throw NetworkDown() }
            return try await responses(request)
        }
        try await harness.send()
        harness.clock.advance(by: 20)
        #expect(try await harness.send().response.status == .internalServerError)
        failing.withLock { $0 = true }
        let stale = try await harness.send(headers: ["Cache-Control": "stale-if-error=1000"])
        #expect(stale.response.status == .ok)
        #expect(stale.body == "good")
        #expect(stale.cacheStatus == .stale)
    }

    @Test("RFC 9111 §4.2.2: public gives a heuristic lifetime to any status (RFC 9111 §4.2.2); without Last-Modified it is not stored")
    func publicGivesHeuristic() async throws {
        let harness = CacheHarness(
            scripted([
                .status(
                    .init(code: 599),
                    headers: ["Cache-Control": "public", "Last-Modified": ManualDate.httpDate(-100_000), "Date": ManualDate.httpDate()]),
                .status(.init(code: 418), headers: ["Cache-Control": "public"]),
            ]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .hit)
        #expect(harness.networkCount == 1)

        let plain = CacheHarness(scripted([.status(.init(code: 599), headers: ["Last-Modified": ManualDate.httpDate(-100_000)])]))
        try await plain.send()
        #expect(try await plain.send().cacheStatus == .miss)
        let bare = CacheHarness(scripted([.status(.init(code: 418), headers: ["Cache-Control": "public"])]))
        try await bare.send()
        #expect(try await bare.send().cacheStatus == .miss)
        #expect(await bare.storage.all().isEmpty)
    }

    @Test("RFC 9111 §5.2.2.3: must-understand overrides no-store for a status the cache understands, and forbids storing any other")
    func mustUnderstand() async throws {
        let directives = ["Cache-Control": "max-age=3600, no-store, must-understand"]
        let understood = CacheHarness(scripted([ok("a", directives)]))
        try await understood.send()
        #expect(try await understood.send().cacheStatus == .hit)
        #expect(understood.networkCount == 1)

        let unknown = CacheHarness(scripted([.status(.init(code: 599), headers: ["Cache-Control": "max-age=3600, must-understand"])]))
        try await unknown.send()
        #expect(try await unknown.send().cacheStatus == .miss)
        #expect(unknown.networkCount == 2)

        let requestNoStore = CacheHarness(scripted([ok("a", directives)]))
        try await requestNoStore.send(headers: ["Cache-Control": "no-store"])
        #expect(await requestNoStore.storage.all().isEmpty)
    }

    @Test("A Vary in a 304 replaces the stored one, and the variant is matched on its fields")
    func varyFrom304() async throws {
        let harness = CacheHarness(
            scripted([
                ok("a", ["Cache-Control": "max-age=10", "ETag": "\"1\"", "Vary": "Accept-Language"]),
                .status(.notModified, headers: ["ETag": "\"1\"", "Vary": "Accept", "Cache-Control": "max-age=100"]),
                ok("b", ["Cache-Control": "max-age=100", "Vary": "Accept"]),
            ]))
        try await harness.send(headers: ["Accept-Language": "fr", "Accept": "text/plain"])
        harness.clock.advance(by: 20)
        let revalidated = try await harness.send(headers: ["Accept-Language": "fr", "Accept": "text/plain"])
        #expect(revalidated.cacheStatus == .revalidated)
        // Now only Accept matters: another language is the same variant, another Accept is not.
        #expect(try await harness.send(headers: ["Accept-Language": "de", "Accept": "text/plain"]).cacheStatus == .hit)
        #expect(try await harness.send(headers: ["Accept-Language": "fr", "Accept": "text/html"]).cacheStatus == .miss)
        #expect(harness.networkCount == 3)
        #expect((await harness.storage.all()).values.map(\.count).reduce(0, +) == 2)
    }

    @Test("only-if-cached takes a stale-while-revalidate entry without starting a revalidation")
    func onlyIfCachedNoBackgroundRevalidation() async throws {
        let harness = CacheHarness(
            scripted([
                ok("a", ["Cache-Control": "max-age=10, stale-while-revalidate=100", "ETag": "\"1\""]),
                .status(.notModified, headers: ["ETag": "\"1\""]),
            ]))
        try await harness.send()
        harness.clock.advance(by: 20)
        let stale = try await harness.send(headers: ["Cache-Control": "only-if-cached"])
        #expect(stale.cacheStatus == .stale)
        #expect(stale.body == "a")
        await harness.cache.backgroundRevalidationsFinished()
        #expect(harness.networkCount == 1)
    }

    @Test("A streamed body of unknown length over the limit is handed on whole and not stored")
    func streamedBodyOverLimitPassesThrough() async throws {
        let pulled = Counter()
        let harness = CacheHarness { _ in
            StubResponse(
                status: .ok, headers: ["Cache-Control": "max-age=100"],
                body: HTTPBody(CountingChunks(chunkSize: 8, chunkCount: 3, pulled: pulled), length: .unknown, iterationBehavior: .single))
        }
        let first = try await harness.send(maxResponseBodySize: 10)
        #expect(first.body == String(repeating: "a", count: 24))
        #expect(first.cacheStatus == .miss)
        #expect(pulled.value == 3)
        #expect(try await harness.send(maxResponseBodySize: 10).cacheStatus == .miss)
        #expect(harness.networkCount == 2)
        #expect(await harness.storage.all().isEmpty)
    }

    @Test("Through a client, a streamed body over the limit fails as it would without a cache")
    func streamedBodyOverLimitThroughClient() async throws {
        let pulled = Counter()
        let (client, _) = makeClient(middlewares: [HTTPCache(storage: MemoryCacheStorage())], maxResponseBodySize: 10_500) { _ in
            StubResponse(
                status: .ok, headers: ["Cache-Control": "max-age=100"],
                body: HTTPBody(
                    CountingChunks(chunkSize: 1000, chunkCount: 1000, pulled: pulled), length: .unknown, iterationBehavior: .single))
        }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        guard case .responseTooLarge(let limit, let request) = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 10_500)
        #expect(request != nil)
        // The cache read no further than the client would have.
        #expect(pulled.value == 11)
    }
}
