import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Invalidation, per-request policies, purging and the caller's view of the cache status.
@Suite("HTTPCache policies and invalidation")
struct HTTPCachePolicyTests {
    @Test(
        "A successful unsafe method invalidates its URL and same-origin Location / Content-Location",
        arguments: [HTTPRequest.Method.post, .put, .patch, .delete])
    func invalidation(method: HTTPRequest.Method) async throws {
        let harness = CacheHarness { request in
            if request.method != .get {
                return .status(.created, headers: ["Location": "/films/1", "Content-Location": "https://other.example/films/2"])
            }
            return ok(request.path, ["Cache-Control": "max-age=100"])
        }
        try await harness.send(.get, "/films")
        try await harness.send(.get, "/films/1")
        let foreign = CachedResponse(
            response: HTTPResponse(status: .ok), body: Data(), requestTime: ManualDate.defaultStart, responseTime: ManualDate.defaultStart)
        await harness.storage.store(foreign, for: CacheKey(url: "https://other.example/films/2"))
        try await harness.send(method, "/films")
        #expect(try await harness.send(.get, "/films").cacheStatus == .miss)
        #expect(try await harness.send(.get, "/films/1").cacheStatus == .miss)
        #expect((await harness.storage.all())[CacheKey(url: "https://other.example/films/2")] != nil)
    }

    @Test("A failed unsafe method invalidates nothing")
    func failedUnsafeMethod() async throws {
        let harness = CacheHarness { request in
            request.method == .post ? .status(.badRequest) : ok("a", ["Cache-Control": "max-age=100"])
        }
        try await harness.send()
        try await harness.send(.post)
        #expect(try await harness.send().cacheStatus == .hit)
    }

    @Test("Invalidation reaches every credential partition")
    func invalidationAcrossPartitions() async throws {
        let harness = CacheHarness { request in
            request.method == .get ? ok("a", ["Cache-Control": "max-age=100"]) : .status(.noContent)
        }
        try await harness.send(headers: ["Authorization": "Bearer alice"])
        try await harness.send(.delete, headers: ["Authorization": "Bearer bob"])
        #expect((await harness.storage.all()).isEmpty)
    }

    @Test("reloadIgnoringCacheData: always the network, unconditionally, and the answer is stored")
    func reloadIgnoringCacheData() async throws {
        let harness = CacheHarness(
            scripted([ok("old", ["Cache-Control": "max-age=100", "ETag": "\"1\""]), ok("new", ["Cache-Control": "max-age=100"])]))
        try await harness.send()
        let reloaded = try await harness.send(policy: .reloadIgnoringCacheData)
        #expect(reloaded.cacheStatus == .miss)
        #expect(harness.transport.requests.last?.header("If-None-Match") == nil)
        #expect(try await harness.send().body == "new")
        #expect(harness.networkCount == 2)
    }

    @Test("returnCacheDataElseLoad: a stale entry is used without the network; nothing stored loads")
    func returnCacheDataElseLoad() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=10"])]))
        #expect(try await harness.send(policy: .returnCacheDataElseLoad).cacheStatus == .miss)
        harness.clock.advance(by: 1000)
        let stale = try await harness.send(policy: .returnCacheDataElseLoad)
        #expect(stale.cacheStatus == .stale)
        #expect(stale.body == "a")
        #expect(harness.networkCount == 1)
    }

    @Test("returnCacheDataDontLoad: the entry however old, else a 504 without the network")
    func returnCacheDataDontLoad() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=10"])]))
        #expect(try await harness.send(policy: .returnCacheDataDontLoad).response.status == .gatewayTimeout)
        #expect(harness.networkCount == 0)
        try await harness.send()
        harness.clock.advance(by: 1000)
        #expect(try await harness.send(policy: .returnCacheDataDontLoad).cacheStatus == .stale)
        #expect(harness.networkCount == 1)
    }

    @Test("useProtocolCachePolicy is the default")
    func defaultPolicy() {
        #expect(RequestOptions().cachePolicy == .useProtocolCachePolicy)
    }

    @Test("purge(url:) removes a URL in every partition; purgeAll() removes everything")
    func purge() async throws {
        let harness = CacheHarness { request in ok(request.path, ["Cache-Control": "max-age=100"]) }
        try await harness.send(.get, "/films")
        try await harness.send(.get, "/films", headers: ["Authorization": "Bearer alice"])
        try await harness.send(.get, "/todos")
        try await harness.cache.purge(url: #require(URL(string: "https://API.example.com/films#top")))
        #expect(try await harness.send(.get, "/films").cacheStatus == .miss)
        #expect(try await harness.send(.get, "/films", headers: ["Authorization": "Bearer alice"]).cacheStatus == .miss)
        #expect(try await harness.send(.get, "/todos").cacheStatus == .hit)
        await harness.cache.purgeAll()
        #expect((await harness.storage.all()).isEmpty)
    }

    @Test("A body over the response size limit is passed through, not stored")
    func overSizeLimit() async throws {
        let harness = CacheHarness(scripted([ok("0123456789", ["Cache-Control": "max-age=100"])]))
        #expect(try await harness.send(maxResponseBodySize: 5).body == "0123456789")
        #expect((await harness.storage.all()).isEmpty)
    }

    @Test("The caller reads the cache status from Response.cacheStatus")
    func responseCacheStatus() async throws {
        let clock = ManualDate()
        let cache = HTTPCache(storage: TestCacheStorage(), now: { clock.now })
        let (client, transport) = makeClient(middlewares: [cache]) { _ in
            .json(#"{"id":1}"#, headers: ["Cache-Control": "max-age=100"])
        }
        struct Film: Decodable, Sendable { let id: Int }
        let endpoint = TestEndpoint(baseURL: testBaseURL, path: "/films")
        let first = try await client.response(endpoint, as: Film.self)
        let second = try await client.response(endpoint, as: Film.self)
        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .hit)
        #expect(second.value.id == 1)
        #expect(second.response.headerFields[HTTPField.Name("X-Cache")!] == nil)
        #expect(transport.requests.count == 1)
    }
}
