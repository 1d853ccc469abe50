import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

/// An API that says "token expired" its own way: a 403 with `{"error": "token_expired"}`.
@Suite("Auth: the app decides what a refused credential looks like")
struct AuthenticationFailureCheckTests {
    /// A server that refuses `old` with a 403 naming the reason, accepts `new`, and forbids
    /// `/admin` to everyone (a 403 that no new token fixes).
    private static func server(_ request: RecordedRequest) -> StubResponse {
        if request.url?.path.hasSuffix("/admin") == true {
            return .json(#"{"error":"not_an_admin"}"#, status: .forbidden)
        }
        return request.header("Authorization") == "Bearer new"
            ? .json("woody") : .json(#"{"error":"token_expired"}"#, status: .forbidden)
    }

    private static func client(
        isAuthenticationFailure: AuthenticationMiddleware.FailureCheck?, refreshes: Counter
    ) -> (LiveAPIClient, StubTransport) {
        let refresher = TokenRefresher(store: InMemoryTokenStore(AuthToken(accessToken: "old", refreshToken: "r"))) { _ in
            refreshes.increment()
            return AuthToken(accessToken: "new", refreshToken: "r")
        }
        let transport = StubTransport { Self.server($0) }
        let middleware = AuthenticationMiddleware(tokenProvider: refresher, isAuthenticationFailure: isAuthenticationFailure)
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport, middlewares: [middleware]))
        return (client, transport)
    }

    @Test("a 403 the app calls an expired token refreshes once and replays the request with the new token")
    func customFailure() async throws {
        let refreshes = Counter()
        let (client, transport) = Self.client(
            isAuthenticationFailure: { response, body in
                response.status == .forbidden && String(decoding: body, as: UTF8.self).contains("token_expired")
            },
            refreshes: refreshes)
        let name = try await client.send(Request<String>(path: "/me"))
        #expect(name == "woody")
        #expect(refreshes.value == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer old", "Bearer new"])

        // A 403 the check does not call a refused credential is the answer, with its body, and
        // no refresh.
        let error = await networkError { _ = try await client.send(Request<String>(path: "/admin")) }
        guard case .forbidden(let failure)? = error else {
            Issue.record("expected forbidden, got \(String(describing: error))")
            return
        }
        #expect(String(decoding: failure.body, as: UTF8.self).contains("not_an_admin"))
        #expect(refreshes.value == 1)
    }

    @Test("without a check, only a 401 is a refused credential: the same 403 is the answer")
    func defaultIsUnauthorized() async throws {
        let refreshes = Counter()
        let (client, transport) = Self.client(isAuthenticationFailure: nil, refreshes: refreshes)
        let error = await networkError { _ = try await client.send(Request<String>(path: "/me")) }
        #expect(error == .httpError(statusCode: 403))
        #expect(refreshes.value == 0)
        #expect(transport.requests.count == 1)
    }
}
