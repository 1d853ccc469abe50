// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the Authentication DocC article, compiled: each sits between
// `article-sample` markers, exactly as in the article, and the test below fails when they differ.

private enum AuthenticationArticleSamples {
    static func authManager(apiURL: URL, tokenFile: URL, session: SampleSignInScreen) async throws {
        // <article-sample>
        let auth = AuthManager(
            client: LiveAPIClient(baseURL: apiURL),          // its own client, without auth.middleware
            store: FileTokenStore(fileURL: tokenFile),
            onSignOut: { _ in await session.showSignIn() }
        )
        let client = LiveAPIClient(configuration: .init(baseURL: apiURL, middlewares: [auth.middleware]))

        try await auth.login(username: "woody", password: "andy")
        let me = try await client.send(Request<Me>(path: "/me"))   // Bearer token, refreshed as needed
        try await auth.logout()
        // </article-sample>
        _ = me
    }

    static func tokenRefresher(
        apiURL: URL, session: SampleSignInScreen, authAPI: SampleAuthAPI,
        access: String, refresh: String, expiry: Date
    ) async throws {
        // <article-sample>
        let refresher = TokenRefresher(
            store: KeychainTokenStore(service: "com.example.app.auth"),
            refreshWindow: RefreshWindow(maximumRefreshes: 3, interval: .seconds(60)),
            refreshMargin: .seconds(30),
            onSignOut: { _ in await session.showSignIn() }
        ) { token in
            try await authAPI.refresh(token)      // exchanges token.refreshToken for a new AuthToken
        }
        let client = LiveAPIClient(
            baseURL: apiURL, middlewares: [AuthenticationMiddleware(tokenProvider: refresher)])

        try await refresher.setToken(AuthToken(accessToken: access, refreshToken: refresh, expiresAt: expiry))
        // </article-sample>
        _ = client
    }

    /// An endpoint that goes without the user's credential; the sample is its `options`.
    struct PublicEndpoint: APIEndpoint {
        var path: String { "/public" }

        // <article-sample>
        var options: RequestOptions {
            var options = RequestOptions()
            options.requiresAuthentication = false
            return options
        }
        // </article-sample>
    }
}

@Suite("Authentication article samples")
struct AuthenticationArticleTests {
    @Test("every Swift sample of Authentication.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/Authentication.md", testFile: #filePath, marker: "article-sample")
    }
}
