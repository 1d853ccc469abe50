import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Revalidation (RFC 9111 §4.3): conditional requests, 304 merges, 200 replacements.
@Suite("HTTPCache validation")
struct HTTPCacheValidationTests {
    @Test("A stale entry is revalidated with If-None-Match; a 304 serves the stored body as REVALIDATED")
    func notModifiedServesStoredBody() async throws {
        let harness = CacheHarness(
            scripted([
                ok("toy story", ["Cache-Control": "max-age=10", "ETag": "\"v1\"", "Date": ManualDate.httpDate()]),
                .status(.notModified, headers: ["ETag": "\"v1\"", "Date": ManualDate.httpDate(20)]),
            ]))
        try await harness.send()
        harness.clock.advance(by: 20)
        let revalidated = try await harness.send()
        #expect(revalidated.response.status == .ok)
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(revalidated.body == "toy story")
        #expect(harness.transport.requests.map { $0.header("If-None-Match") } == [nil, "\"v1\""])
        // Freshened: fresh again for max-age from the 304's Date.
        harness.clock.advance(by: 9)
        #expect(try await harness.send().cacheStatus == .hit)
        #expect(harness.networkCount == 2)
    }

    @Test(
        "Weak entity tags are sent as they are; unquoted ones are quoted",
        arguments: [
            ("W/\"v1\"", "W/\"v1\""), ("v1", "\"v1\""),
        ])
    func entityTags(stored: String, sent: String) async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "no-cache", "ETag": stored])]))
        try await harness.send()
        try await harness.send()
        #expect(harness.transport.requests.last?.header("If-None-Match") == sent)
    }

    @Test("If-Modified-Since comes from Last-Modified")
    func ifModifiedSince() async throws {
        let lastModified = ManualDate.httpDate(-3600)
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "no-cache", "Last-Modified": lastModified])]))
        try await harness.send()
        try await harness.send()
        #expect(harness.transport.requests.last?.header("If-Modified-Since") == lastModified)
        #expect(harness.transport.requests.last?.header("If-None-Match") == nil)
    }

    @Test("A 304 refreshes the stored headers, but never Content-Length")
    func mergeHeaders() async throws {
        let harness = CacheHarness(
            scripted([
                ok("toy story", ["Cache-Control": "max-age=10", "ETag": "\"v1\"", "Content-Length": "9", "X-Version": "1"]),
                .status(.notModified, headers: ["Cache-Control": "max-age=100", "X-Version": "2", "Content-Length": "0"]),
            ]))
        try await harness.send()
        harness.clock.advance(by: 20)
        let revalidated = try await harness.send()
        #expect(revalidated.response.header("X-Version") == "2")
        #expect(revalidated.response.header("Content-Length") == "9")
        #expect(revalidated.response.header("ETag") == "\"v1\"")
        let stored = try #require((await harness.storage.all()).values.first?.first)
        #expect(stored.response.headerFields[.contentLength] == "9")
        #expect(stored.response.headerFields[.cacheControl] == "max-age=100")
        harness.clock.advance(by: 99)
        #expect(try await harness.send().cacheStatus == .hit)
    }

    @Test("A 200 to a revalidation replaces the entry")
    func fullResponseReplaces() async throws {
        let harness = CacheHarness(
            scripted([
                ok("old", ["Cache-Control": "max-age=10", "ETag": "\"v1\""]),
                ok("new", ["Cache-Control": "max-age=10", "ETag": "\"v2\""]),
            ]))
        try await harness.send()
        harness.clock.advance(by: 20)
        let replaced = try await harness.send()
        #expect(replaced.cacheStatus == .miss)
        #expect(replaced.body == "new")
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.body == "new")
        #expect((await harness.storage.all()).values.first?.count == 1)
        #expect((await harness.storage.all()).values.first?.first?.response.headerFields[.eTag] == "\"v2\"")
    }

    @Test("A caller's conditional request is answered 304 from a fresh entry, and passed through once it is stale")
    func callerConditional() async throws {
        let harness = CacheHarness(
            scripted([
                ok("a", ["Cache-Control": "max-age=100", "ETag": "\"v1\""]),
                .status(.notModified, headers: ["ETag": "\"v1\""]),
            ]))
        try await harness.send()
        let fromCache = try await harness.send(headers: ["If-None-Match": "\"v1\""])
        #expect(fromCache.response.status == .notModified)
        #expect(harness.networkCount == 1)
        harness.clock.advance(by: 200)
        let fromOrigin = try await harness.send(headers: ["If-None-Match": "\"v1\""])
        #expect(fromOrigin.response.status == .notModified)
        #expect(fromOrigin.cacheStatus == .miss)
        #expect(harness.networkCount == 2)
    }
}
