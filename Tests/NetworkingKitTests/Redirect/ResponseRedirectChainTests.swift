import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Response: the final URL and the redirect chain")
struct ResponseRedirectChainTests {
    /// `/old` moved to `/middle`, which moved to `/new`; everything else answers where it is.
    private func client() -> (LiveAPIClient, StubTransport) {
        let transport = StubTransport { request in
            switch request.path {
            case "/v1/old": .status(.found, headers: ["Location": "/v1/middle"])
            case "/v1/middle": .status(.movedPermanently, headers: ["Location": "https://api.example.com/v1/new"])
            default: .json("here")
            }
        }
        return (LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport)), transport)
    }

    @Test("a redirected answer says every URL it went through, and the one it came from")
    func redirected() async throws {
        let (client, _) = client()
        let response = try await client.response(Request<String>(path: "/old"))
        #expect(response.value == "here")
        #expect(response.redirectChain.map(\.path) == ["/v1/old", "/v1/middle", "/v1/new"])
        #expect(response.url?.absoluteString == "https://api.example.com/v1/new")
        #expect(response.wasRedirected)
        #expect(response.request.url?.path == "/v1/old")

        let streamed = try await client.bytes(Request<Data>(path: "/old"))
        #expect(streamed.url?.path == "/v1/new")
        #expect(streamed.redirectChain.count == 3)
    }

    @Test("an answer from where it was asked has its own URL alone, also after map")
    func direct() async throws {
        let (client, _) = client()
        let response = try await client.response(Request<String>(path: "/here"))
        #expect(response.redirectChain.map(\.path) == ["/v1/here"])
        #expect(response.url == response.request.url)
        #expect(!response.wasRedirected)
        #expect(response.map(\.count).redirectChain == response.redirectChain)
    }
}
