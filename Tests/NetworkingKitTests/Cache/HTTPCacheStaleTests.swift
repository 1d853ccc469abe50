import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// stale-while-revalidate and stale-if-error (RFC 5861).
@Suite("HTTPCache stale responses", .timeLimit(.minutes(5)))
struct HTTPCacheStaleTests {
    @Test("stale-while-revalidate: stale served at once, one background revalidation for several requests")
    func staleWhileRevalidate() async throws {
        let gate = TransportGate()
        let harness = CacheHarness { request in
            if request.header("If-None-Match") != nil {
                await gate.wait()
                return .status(.notModified, headers: ["ETag": "\"1\""])
            }
            return ok("a", ["Cache-Control": "max-age=10, stale-while-revalidate=100", "ETag": "\"1\""])
        }
        try await harness.send()
        harness.clock.advance(by: 20)
        for _ in 0..<3 {
            let stale = try await harness.send()
            #expect(stale.cacheStatus == .stale)
            #expect(stale.body == "a")
        }
        gate.open()
        await harness.cache.backgroundRevalidationsFinished()
        #expect(harness.transport.requests.filter { $0.header("If-None-Match") == "\"1\"" }.count == 1)
        #expect(try await harness.send().cacheStatus == .hit)
        #expect(harness.networkCount == 2)
    }

    @Test("stale-while-revalidate: past the window, revalidation happens before the answer")
    func staleWhileRevalidateWindow() async throws {
        let harness = CacheHarness(
            scripted([ok("a", ["Cache-Control": "max-age=10, stale-while-revalidate=100", "ETag": "\"1\""]), .status(.notModified)]))
        try await harness.send()
        harness.clock.advance(by: 111)
        #expect(try await harness.send().cacheStatus == .revalidated)
    }

    @Test("stale-if-error: a 5xx from the origin serves the stale entry")
    func staleIfError5xx() async throws {
        let harness = CacheHarness(
            scripted([ok("a", ["Cache-Control": "max-age=10, stale-if-error=100"]), .status(.internalServerError)]))
        try await harness.send()
        harness.clock.advance(by: 50)
        let stale = try await harness.send()
        #expect(stale.response.status == .ok)
        #expect(stale.cacheStatus == .stale)
        #expect(stale.body == "a")
        harness.clock.advance(by: 100)
        #expect(try await harness.send().response.status == .internalServerError)
    }

    @Test("stale-if-error: an unreachable origin serves the stale entry")
    func staleIfErrorTransport() async throws {
        let failing = LockedState(false)
        let harness = CacheHarness { _ in
            if failing.withLock({ $0 }) { throw NetworkDown() }
            return ok("a", ["Cache-Control": "max-age=10, stale-if-error=100"])
        }
        try await harness.send()
        harness.clock.advance(by: 50)
        failing.withLock { $0 = true }
        #expect(try await harness.send().cacheStatus == .stale)
        harness.clock.advance(by: 100)
        await #expect(throws: NetworkDown.self) { try await harness.send() }
    }

    @Test("stale-if-error in the request")
    func staleIfErrorRequest() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=10"]), .status(.badGateway)]))
        try await harness.send()
        harness.clock.advance(by: 50)
        #expect(try await harness.send(headers: ["Cache-Control": "stale-if-error=60"]).cacheStatus == .stale)
        #expect(try await harness.send().response.status == .badGateway)
    }
}
