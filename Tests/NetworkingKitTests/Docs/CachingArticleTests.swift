// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the Caching DocC article, compiled: each sits between `article-sample`
// markers, exactly as in the article, and the test below fails when they differ.

private enum CachingArticleSamples {
    static func overview(apiURL: URL, cachesDirectory: URL, auth: AuthManager) async throws {
        // <article-sample>
        let cache = HTTPCache(storage: TieredCacheStorage(
            front: MemoryCacheStorage(),                                  // 16 MiB, LRU
            back: DiskCacheStorage(directory: cachesDirectory)            // 100 MiB, LRU, survives restarts
        ))
        let client = LiveAPIClient(configuration: .init(
            baseURL: apiURL,
            middlewares: [LoggingMiddleware(), auth.middleware, RequestDeduplicator(), cache, RetryMiddleware()]
        ))

        let answer = try await client.response(PixarAPIEndpoint.films, as: [PixarFilm].self)
        let status = answer.cacheStatus   // .hit, .miss, .revalidated or .stale
        // </article-sample>
        _ = status
    }

    /// An endpoint that prefers what is stored; the sample is its `options`.
    struct OfflineFirstEndpoint: APIEndpoint {
        var path: String { "/films" }

        // <article-sample>
        var options: RequestOptions {
            var options = RequestOptions()
            options.cachePolicy = .returnCacheDataElseLoad     // offline-first
            return options
        }
        // </article-sample>
    }

    static func purging(cache: HTTPCache, filmsURL: URL) async {
        // <article-sample>
        await cache.purge(url: filmsURL)     // every stored response for the URL, in every partition
        await cache.purgeAll()               // everything, for example at sign-out
        // </article-sample>
    }
}

@Suite("Caching article samples")
struct CachingArticleTests {
    @Test("every Swift sample of Caching.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/Caching.md", testFile: #filePath, marker: "article-sample")
    }
}
