import Foundation
import NetworkingKit
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
        let first = try await client.response(for: Request<Data>(path: "/latest"))
        let second = try await client.response(for: Request<Data>(path: "/latest"))
        #expect(first.cacheStatus == .miss)
        #expect(second.cacheStatus == .miss)
        #expect(transport.requests.map(\.path) == ["/v1/latest", "/v1/versions/17", "/v1/latest", "/v1/versions/17"])

        // Asked for directly, the target is stored as usual.
        _ = try await client.response(for: Request<Data>(path: "/versions/17"))
        let direct = try await client.response(for: Request<Data>(path: "/versions/17"))
        #expect(direct.cacheStatus == .hit)
    }
}
