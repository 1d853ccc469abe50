import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Basic authentication (RFC 7617) on a stub transport: the header, where it goes, and http.
@Suite("Basic authentication")
struct BasicAuthenticationTests {
    @Test("the header is Basic and the base64 of user:password in UTF-8")
    func header() async throws {
        let (client, transport) = makeClient(middlewares: [try BasicAuthentication(username: "woody", password: "andy")])
        try await client.send(Request<Void>(path: "/me"))
        #expect(transport.requests.first?.header("Authorization") == "Basic d29vZHk6YW5keQ==")

        let token = try AuthToken.basic(username: "zoë", password: "pässwörd:with:colons")
        #expect(token.authorizationValue == "Basic " + Data("zoë:pässwörd:with:colons".utf8).base64EncodedString())
        #expect(!token.description.contains(token.accessToken))
    }

    @Test("a user name with a colon, or a control character in either part, is refused")
    func invalidCredentials() {
        #expect(throws: NetworkError.self) { try AuthToken.basic(username: "a:b", password: "c") }
        #expect(throws: NetworkError.self) { try AuthToken.basic(username: "a", password: "b\r\nX-Injected: 1") }
        #expect(throws: NetworkError.self) { try BasicAuthentication(username: "a\u{0}", password: "b") }
    }

    @Test("over http the call fails before anything is sent, unless allowed")
    func refusedOverHTTP() async throws {
        let url = URL(string: "http://api.example.com")!
        let (client, transport) = makeClient(baseURL: url, middlewares: [try BasicAuthentication(username: "u", password: "p")])
        let error = await networkError { try await client.send(Request<Void>(path: "/me")) }
        guard case .invalidRequest(let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("http"))
        #expect(transport.requests.isEmpty)

        let (allowed, allowedTransport) = makeClient(
            baseURL: url, middlewares: [try BasicAuthentication(username: "u", password: "p", allowsHTTP: true)])
        try await allowed.send(Request<Void>(path: "/me"))
        #expect(allowedTransport.requests.first?.header("Authorization") == "Basic dTpw")
    }

    @Test("not to another origin, not on a redirect that leaves the origin, not over the request's own Authorization")
    func origins() async throws {
        let (client, transport) = makeClient(middlewares: [try BasicAuthentication(username: "u", password: "p")]) { request in
            request.path == "/v1/away" ? .status(.found, headers: ["Location": "https://elsewhere.example.org/x"]) : .status(.noContent)
        }
        let elsewhere = try #require(URL(string: "https://elsewhere.example.org/direct"))
        try await client.send(Request<Void>(path: elsewhere.absoluteString))
        try await client.send(Request<Void>(path: "/away"))
        try await client.send(Request<Void>(path: "/mine", headers: ["Authorization": "Bearer own"]))
        #expect(transport.requests.map { $0.header("Authorization") } == [nil, "Basic dTpw", nil, "Bearer own"])
    }

    @Test("a 401 is the caller's answer: there is nothing to refresh")
    func unauthorized() async throws {
        let (client, transport) = makeClient(middlewares: [try BasicAuthentication(username: "u", password: "wrong")]) { _ in
            .status(.unauthorized, headers: ["WWW-Authenticate": "Basic realm=\"x\""])
        }
        let error = await networkError { try await client.send(Request<Void>(path: "/me")) }
        #expect(error?.statusCode == 401)
        #expect(transport.requests.count == 1)
    }
}
