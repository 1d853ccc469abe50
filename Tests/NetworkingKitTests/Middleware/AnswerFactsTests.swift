import Foundation
import HTTPTypes
import MetricsTestKit
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// What happened on the way down (redirects, a cache's answer) travels back up with the answer
/// itself, so that it is right for every caller of a shared call and is never read from a
/// server's headers.
@Suite("Answer facts travel with the answer", .timeLimit(.minutes(5)))
struct AnswerFactsTests {
    @Test("a caller joined to a de-duplicated call that was redirected reports the redirect chain, as its leader does")
    func joinedCallReportsRedirects() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { request in
            guard request.url?.path == "/v1/films/new" else {
                return .status(.found, headers: ["Location": "/v1/films/new"])
            }
            await gate.wait()
            return .json(#"["Up"]"#)
        }
        let callers = (0..<3).map { _ in
            Task { try await client.response(Request<[String]>(path: "/films")) }
        }
        await waitUntil { deduplicator.waiterCount == 3 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers {
            let response = try await caller.value
            #expect(response.value == ["Up"])
            #expect(response.wasRedirected)
            #expect(response.redirectChain.map(\.path) == ["/v1/films", "/v1/films/new"])
            #expect(response.url?.path == "/v1/films/new")
        }
        #expect(transport.requests.count == 2)
    }

    @Test("a server's X-Cache: HIT with no cache in the chain is not a cache hit: not reported, not counted, kept as sent")
    func serversXCacheIsNotAHit() async throws {
        let metrics = TestMetrics()
        let (client, _) = makeClient(middlewares: [MetricsMiddleware(factory: metrics)]) { _ in
            .json(#"["Up"]"#, headers: ["X-Cache": "HIT", "Cache-Control": "max-age=60"])
        }
        let response = try await client.response(Request<[String]>(path: "/films"))
        #expect(response.cacheStatus == nil)
        #expect(response.headerFields[HTTPField.Name("X-Cache")!] == "HIT")
        let streamed = try await client.bytes(Request<Data>(path: "/films"))
        #expect(streamed.cacheStatus == nil)
        #expect(streamed.headerFields[HTTPField.Name("X-Cache")!] == "HIT")
        for result in CacheStatus.allCases.map({ $0.rawValue.lowercased() }) {
            #expect(metrics.counterTotal(label: "networkingkit_cache_total", dimensions: [("result", result)]) == 0)
        }
    }

    @Test("with a cache in the chain, the status reaches the caller and the metrics, and a CDN's X-Cache stays as sent")
    func cacheStatusWithCache() async throws {
        let metrics = TestMetrics()
        let cache = HTTPCache(storage: MemoryCacheStorage())
        let (client, transport) = makeClient(middlewares: [MetricsMiddleware(factory: metrics), cache]) { _ in
            .json(#"["Up"]"#, headers: ["X-Cache": "MISS from cdn", "Cache-Control": "max-age=60"])
        }
        let first = try await client.response(Request<[String]>(path: "/films"))
        let second = try await client.response(Request<[String]>(path: "/films"))
        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .hit)
        #expect(second.headerFields[HTTPField.Name("X-Cache")!] == "MISS from cdn")
        #expect(second.map(\.count).cacheStatus == .hit)
        #expect(transport.requests.count == 1)
        #expect(metrics.counterTotal(label: "networkingkit_cache_total", dimensions: [("result", "hit")]) == 1)
        #expect(metrics.counterTotal(label: "networkingkit_cache_total", dimensions: [("result", "miss")]) == 1)
    }

    @Test("a ResponseInterceptor neither buffers nor fails a download or a byte stream larger than the client's limit")
    func responseInterceptorLeavesStreamsAlone() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let seen = LockedState(0)
        let interceptor = ResponseInterceptorMiddleware { data, response in
            seen.withLock { $0 += 1 }
            return (data, response)
        }
        let data = patternedData(200_000)
        let (client, _) = makeClient(middlewares: [interceptor], maxResponseBodySize: 1_000) { _ in
            StubResponse(headers: ["Content-Type": "application/octet-stream"], body: HTTPBody(data))
        }
        let destination = folder.url.appendingPathComponent("film.bin")
        let file = try await client.download(Request<Data>(path: "/film"), to: destination)
        #expect(file.size == 200_000)
        #expect(try Data(contentsOf: destination) == data)
        let streamed = try await client.bytes(Request<Data>(path: "/film"))
        #expect(try await streamed.body.collect(upTo: .max) == data)
        #expect(seen.withLock { $0 } == 0)
        // An answer the client reads whole still goes through it, within the limit.
        let (small, _) = makeClient(middlewares: [interceptor]) { _ in .json(#"["Up"]"#) }
        #expect(try await small.send(Request<[String]>(path: "/films")) == ["Up"])
        #expect(seen.withLock { $0 } == 1)
    }
}
