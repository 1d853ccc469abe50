import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Auth: login, /me, refresh rotation, expiry hooks")
struct AuthRoutesTests {
    struct Tokens {
        var access: String
        var refresh: String
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func login(_ client: any TestClientProtocol, query: String = "", user: String = "woody", password: String = "andy") async throws
        -> Tokens
    {
        try await client.execute(
            uri: "/auth/login\(query)",
            method: .post,
            headers: jsonHeaders,
            body: jsonBody(#"{"username":"\#(user)","password":"\#(password)"}"#)
        ) { response in
            #expect(response.status == .ok)
            let body = response.json
            #expect(body["token_type"] == .string("Bearer"))
            return Tokens(
                access: try #require(body["access_token"]?.stringValue),
                refresh: try #require(body["refresh_token"]?.stringValue)
            )
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func me(_ client: any TestClientProtocol, _ token: String?) async throws -> TestResponse {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/me", method: .get, headers: headers)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func loginThenMe() async throws {
        try await withDemoRouter { client, state in
            let tokens = try await login(client)
            let response = try await me(client, tokens.access)
            #expect(response.status == .ok)
            #expect(response.json["username"] == .string("woody"))
            #expect(response.json["display_name"] == .string("Woody"))
            let buzz = try await login(client, user: "buzz", password: "infinity")
            let buzzMe = try await me(client, buzz.access)
            #expect(buzzMe.json["username"] == .string("buzz"))
            #expect(state.stats.snapshot.logins == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func loginReportsExpiresIn() async throws {
        try await withDemoRouter(accessTokenLifetime: .seconds(42)) { client, _ in
            try await client.execute(
                uri: "/auth/login", method: .post, headers: jsonHeaders, body: jsonBody(#"{"username":"woody","password":"andy"}"#)
            ) {
                #expect($0.json["expires_in"] == .number(42))
            }
            try await client.execute(
                uri: "/auth/login?ttl=7",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"username":"woody","password":"andy"}"#)
            ) {
                #expect($0.json["expires_in"] == .number(7))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func badCredentialsAndMissingFields() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(
                uri: "/auth/login", method: .post, headers: jsonHeaders, body: jsonBody(#"{"username":"woody","password":"sid"}"#)
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.json["code"] == .string("invalid_credentials"))
            }
            try await client.execute(uri: "/auth/login", method: .post, headers: jsonHeaders, body: jsonBody(#"{"username":"woody"}"#)) {
                response in
                #expect(response.status == .unprocessableContent)
                let errors = response.json["errors"]
                #expect(errors?[0]?["field"] == .string("password"))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func meChallengesWithWWWAuthenticate() async throws {
        try await withDemoRouter { client, _ in
            let missing = try await me(client, nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == #"Bearer realm="DemoAPI""#)
            #expect(missing.json["code"] == .string("unauthorized"))

            let wrong = try await me(client, "at_not-a-token")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.headers[.wwwAuthenticate] == #"Bearer realm="DemoAPI", error="invalid_token""#)
            #expect(wrong.json["code"] == .string("invalid_token"))

            let expired = try await login(client, query: "?ttl=0")
            let response = try await me(client, expired.access)
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="DemoAPI", error="invalid_token""#)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func refreshRotatesBothTokens() async throws {
        try await withDemoRouter { client, state in
            let first = try await login(client)
            let second = try await client.execute(
                uri: "/auth/refresh",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"refresh_token":"\#(first.refresh)"}"#)
            ) { response in
                #expect(response.status == .ok)
                let body = response.json
                return Tokens(
                    access: try #require(body["access_token"]?.stringValue), refresh: try #require(body["refresh_token"]?.stringValue))
            }
            #expect(second.access != first.access)
            #expect(try await me(client, first.access).status == .unauthorized)
            #expect(try await me(client, second.access).status == .ok)
            try await client.execute(
                uri: "/auth/refresh",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"refresh_token":"\#(first.refresh)"}"#)
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.json["code"] == .string("invalid_grant"))
            }
            #expect(state.stats.snapshot.refreshes == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func overlappingRefreshesWithOneTokenLetOnlyOneWin() async throws {
        try await withDemoRouter { client, state in
            let tokens = try await login(client)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await client.execute(
                            uri: "/auth/refresh?delay_ms=100",
                            method: .post,
                            headers: jsonHeaders,
                            body: jsonBody(#"{"refresh_token":"\#(tokens.refresh)"}"#)
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .unauthorized }.count == 1)
            #expect(state.stats.snapshot.refreshes == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func expireHookInvalidatesTheAccessTokenOnly() async throws {
        try await withDemoRouter { client, _ in
            let tokens = try await login(client)
            try await client.execute(uri: "/auth/expire?username=woody", method: .post) { #expect($0.status == .noContent) }
            #expect(try await me(client, tokens.access).status == .unauthorized)
            try await client.execute(
                uri: "/auth/refresh",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"refresh_token":"\#(tokens.refresh)"}"#)
            ) { #expect($0.status == .ok) }
            try await client.execute(uri: "/auth/expire?username=sid", method: .post) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/auth/expire", method: .post) { #expect($0.status == .badRequest) }
        }
    }
}
