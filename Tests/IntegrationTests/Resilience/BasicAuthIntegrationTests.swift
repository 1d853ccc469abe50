import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// Basic authentication against DemoAPI's `/auth/basic`, over every transport.
@Suite("Basic authentication over every transport", .timeLimit(.minutes(5)))
struct BasicAuthIntegrationTests {
    struct Me: Decodable, Sendable {
        let username: String
    }

    static func client(_ server: DemoServer, _ kind: TransportKind, _ basic: BasicAuthentication) -> LiveAPIClient {
        LiveAPIClient(
            configuration: .init(baseURL: server.baseURL, transport: kind.transport, middlewares: [basic], timeout: .seconds(120)))
    }

    @Test("the right credentials pass, wrong ones get the server's 401, http needs the caller's say-so", arguments: TransportKind.allCases)
    func basic(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let good = Self.client(server, kind, try BasicAuthentication(username: "woody", password: "andy", allowsHTTP: true))
            #expect(try await good.send(Request<Me>(path: "/auth/basic")).username == "woody")

            let wrong = Self.client(server, kind, try BasicAuthentication(username: "woody", password: "buzz", allowsHTTP: true))
            let refused = await networkError { _ = try await wrong.send(Request<Me>(path: "/auth/basic")) }
            #expect(refused?.statusCode == 401)
            #expect(refused?.failure?.response.headerFields[.wwwAuthenticate]?.hasPrefix("Basic realm=") == true)
            // The whole answer, body included: FoundationNetworking held a Basic 401 until the timeout.
            #expect(refused?.failure?.serverMessage == "Basic credentials are required.")

            let before = server.stats.count("/auth/basic")
            let notAllowed = Self.client(server, kind, try BasicAuthentication(username: "woody", password: "andy"))
            let insecure = await networkError { _ = try await notAllowed.send(Request<Me>(path: "/auth/basic")) }
            guard case .invalidRequest? = insecure else {
                Issue.record("expected invalidRequest, got \(String(describing: insecure))")
                return
            }
            #expect(server.stats.count("/auth/basic") == before)
        }
    }
}
