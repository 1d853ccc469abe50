import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// The cache and the redirect step below it.
@Suite("HTTP cache and redirects")
struct HTTPCacheRedirectTests {
    @Test("an answer reached through a redirect is not stored under the redirecting URL")
    func redirectedAnswerNotStored() async throws {
        let transport = StubTransport { request in
            if request.path == "/v1/latest" {
                return .status(.found, headers: ["Location": "/v1/versions/17"])
            }
            return .json(#"{"version":17}"#, headers: ["Cache-Control": "max-age=31536000"])
        }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport, middlewares: [HTTPCache(storage: MemoryCacheStorage())]))
        let first = try await client.response(Request<Data>(path: "/latest"))
        let second = try await client.response(Request<Data>(path: "/latest"))
        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .miss)
        #expect(transport.requests.map(\.path) == ["/v1/latest", "/v1/versions/17", "/v1/latest", "/v1/versions/17"])

        // Asked for directly, the target is stored as usual.
        _ = try await client.response(Request<Data>(path: "/versions/17"))
        let direct = try await client.response(Request<Data>(path: "/versions/17"))
        #expect(direct.cacheStatus == .hit)
    }

    /// A client whose cache reads `clock`, over `transport`.
    private func client(_ transport: StubTransport, clock: ManualDate) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: transport,
                middlewares: [HTTPCache(storage: MemoryCacheStorage(), now: { clock.now })]))
    }

    @Test(
        "a revalidation redirected to another origin takes no validator there, and the answer is neither stored for the first URL nor a HIT after"
    )
    func revalidationRedirectedElsewhere() async throws {
        let moved = LockedState(false)
        let transport = StubTransport { request in
            switch (request.url?.host, moved.withLock { $0 }) {
            case ("api.example.com", false):
                return .json(#"{"from":"a"}"#, headers: ["Cache-Control": "max-age=10", "ETag": "\"a1\""])
            case ("api.example.com", true):
                return .status(.found, headers: ["Location": "https://cdn.example.net/doc"])
            default:
                // The other origin answers any validator with a 304, and otherwise in full.
                if request.header("If-None-Match") != nil { return .status(.notModified, headers: ["ETag": "\"a1\""]) }
                return .json(#"{"from":"b"}"#, headers: ["Cache-Control": "max-age=1000", "ETag": "\"b1\""])
            }
        }
        let clock = ManualDate()
        let client = client(transport, clock: clock)
        _ = try await client.response(Request<Data>(path: "/doc"))
        moved.withLock { $0 = true }
        clock.advance(by: 20)

        let revalidated = try await client.response(Request<Data>(path: "/doc"))
        #expect(revalidated.cacheStatus == .miss)
        #expect(String(decoding: revalidated.value, as: UTF8.self) == #"{"from":"b"}"#)
        let atB = try #require(transport.requests.last)
        #expect(atB.url?.host == "cdn.example.net")
        #expect(atB.header("If-None-Match") == nil)

        let after = try await client.response(Request<Data>(path: "/doc"))
        #expect(after.cacheStatus == .miss)
        #expect(transport.requests.count == 5)
    }

    @Test("a revalidation redirected within the origin whose target answers 304 asks again in full: the 304 freshens nothing")
    func revalidationRedirected304() async throws {
        let moved = LockedState(false)
        let transport = StubTransport { request in
            if request.path == "/v1/doc" {
                return moved.withLock { $0 }
                    ? .status(.movedPermanently, headers: ["Location": "/v1/doc-2"])
                    : .json(#"{"v":1}"#, headers: ["Cache-Control": "max-age=10", "ETag": "\"same\""])
            }
            if request.header("If-None-Match") == "\"same\"" { return .status(.notModified, headers: ["ETag": "\"same\""]) }
            return .json(#"{"v":2}"#, headers: ["Cache-Control": "max-age=1000", "ETag": "\"same\""])
        }
        let clock = ManualDate()
        let client = client(transport, clock: clock)
        _ = try await client.response(Request<Data>(path: "/doc"))
        moved.withLock { $0 = true }
        clock.advance(by: 20)

        let answer = try await client.response(Request<Data>(path: "/doc"))
        #expect(answer.cacheStatus == .miss)
        #expect(String(decoding: answer.value, as: UTF8.self) == #"{"v":2}"#)
        #expect(try await client.response(Request<Data>(path: "/doc")).cacheStatus == .miss)
    }
}
