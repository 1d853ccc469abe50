// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the Retry DocC article, compiled: each sits between `article-sample`
// markers, exactly as in the article, and the test below fails when they differ.

/// Stand-ins for what the samples take from the app around them.
private struct Todo: Decodable, Sendable {
    let title: String
}

private enum TodosEndpoint: APIEndpoint {
    case list(page: Int)

    var path: String { "/todos" }
}

private func scheduleReload(after seconds: TimeInterval) {}

private enum RetryArticleSamples {
    static func policies() {
        // <article-sample>
        let presets = [
            RetryPolicy.default,      // 3 attempts; 0.5 s then 1 s before jitter; full jitter
            RetryPolicy.aggressive,   // 5 attempts from 0.25 s
            RetryPolicy.disabled,     // 1 attempt: no retry
        ]

        let patient = RetryPolicy(
            maxAttempts: 4, baseDelay: .seconds(1), multiplier: 3, maxDelay: .seconds(30), jitter: .equal)
        // </article-sample>
        _ = (presets, patient)
    }

    /// `todos` stands for a view model's state.
    static func retryAfter(client: LiveAPIClient, todos: inout [Todo]) async throws {
        // <article-sample>
        do {
            todos = try await client.request(TodosEndpoint.list(page: 1), as: [Todo].self)
        } catch NetworkError.rateLimited(_, let retryAfter) {
            scheduleReload(after: retryAfter?.delay(from: Date()) ?? 60)
        }
        // </article-sample>
    }

    static func middleware(apiURL: URL, auth: AuthManager) {
        // <article-sample>
        let budget = RetryBudget()     // share one instance between clients to bound them together
        let client = LiveAPIClient(configuration: .init(
            baseURL: apiURL,
            middlewares: [auth.middleware, RetryMiddleware(policy: .default, budget: budget)]
        ))
        // </article-sample>
        _ = client
    }

    /// An endpoint that must never be repeated; the sample is its `options`.
    struct PaymentEndpoint: APIEndpoint {
        var path: String { "/payments" }
        var method: HTTPMethod { .post }

        // <article-sample>
        var options: RequestOptions {
            var options = RequestOptions()
            options.retryPolicy = .disabled    // a payment: never repeated (`.none` does not compile)
            return options
        }
        // </article-sample>
    }

    static func atTheCallSite(client: LiveAPIClient) async throws {
        // <article-sample>
        let films = try await withRetry(policy: .aggressive) {
            try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        }
        // </article-sample>
        _ = films
    }

    /// The sample is a lone expression: it is the value this function returns.
    static func timeouts(apiURL: URL) -> LiveAPIClient {
        // <article-sample>
        LiveAPIClient(configuration: .init(baseURL: apiURL, timeout: .seconds(30), callTimeout: .seconds(90)))
        // </article-sample>
    }
}

@Suite("Retry article samples")
struct RetryArticleTests {
    @Test("every Swift sample of Retry.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/Retry.md", testFile: #filePath, marker: "article-sample")
    }
}
