// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import Foundation
import HTTPTypes
import NetworkingKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift samples of the Middleware DocC article (WritingMiddleware.md), compiled: each sits
// between `article-sample` markers, exactly as in the article, and the test below fails when they
// differ.

private enum WritingMiddlewareArticleSamples {
    static func writeAMiddleware() {
        // <article-sample>
        struct APIKeyMiddleware: Middleware {
            let key: String

            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                var request = request
                request.headerFields[HTTPField.Name("X-API-Key")!] = key
                return try await next(request, body, context)
            }
        }
        // </article-sample>
    }

    static func seedStyleInterceptors(apiURL: URL, store: any TokenStore) {
        // <article-sample>
        struct AuthInterceptor: RequestInterceptor {
            let tokenStore: any TokenStore
            func intercept(_ request: URLRequest) async throws -> URLRequest {
                var request = request
                if let token = try await tokenStore.token() {
                    request.setValue(token.authorizationValue, forHTTPHeaderField: "Authorization")
                }
                return request
            }
        }

        let client = LiveAPIClient(
            baseURL: apiURL,
            middlewares: [
                AuthInterceptor(tokenStore: store).middleware,
                RequestInterceptorMiddleware { request in
                    var request = request
                    request.setValue("PixarApp/1.0", forHTTPHeaderField: "User-Agent")
                    return request
                },
            ])
        // </article-sample>
        _ = client
    }

    static func defaultOrder(apiURL: URL, auth: AuthManager) {
        // <article-sample>
        let client = LiveAPIClient(configuration: .init(
            baseURL: apiURL,
            middlewares: [
                LoggingMiddleware(),
                MetricsMiddleware(),
                TracingMiddleware(),
                auth.middleware,                 // AuthenticationMiddleware
                RequestDeduplicator(),
                HTTPCache(storage: MemoryCacheStorage()),
                RetryMiddleware(policy: .default),
            ]))
        // </article-sample>
        _ = client
    }
}

@Suite("WritingMiddleware article samples")
struct WritingMiddlewareArticleTests {
    @Test("every Swift sample of WritingMiddleware.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/WritingMiddleware.md", testFile: #filePath, marker: "article-sample")
    }
}
