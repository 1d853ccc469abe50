// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the "Resilience beyond retries" DocC article, compiled: each sits between
// `article-sample` markers, exactly as in the article, and the test below fails when they differ.

private enum ResilienceArticleSamples {
    static func chain() -> (CircuitBreaker, LiveAPIClient) {
        // <article-sample>
        let breaker = CircuitBreaker()
        let client = LiveAPIClient(configuration: .init(
            baseURL: URL(string: "https://api.example.com")!,
            middlewares: [RetryMiddleware(circuitBreaker: breaker), breaker]
        ))
        // </article-sample>
        return (breaker, client)
    }

    static func refused(client: LiveAPIClient) async throws {
        // <article-sample>
        do {
            let films = try await client.send(Request<[String]>(path: "/films"))
            print(films)
        } catch NetworkError.circuitOpen(let failure) {
            print("unavailable; a probe in", failure.retryAfter ?? .zero)
        }
        // </article-sample>
    }

    static func policy() -> CircuitBreaker {
        // <article-sample>
        let policy = CircuitBreaker.Policy(
            failureRateThreshold: 0.25, minimumCalls: 50, openDuration: .seconds(15), slowCallThreshold: .seconds(2))
        let perOperation = CircuitBreaker(policy: policy, key: .operation)
        // </article-sample>
        return perOperation
    }

    static func classification() -> CircuitBreaker.Policy {
        // <article-sample>
        let strict = CircuitBreaker.Policy(classify: { outcome in
            if case .success(let response) = outcome, response.status == .notFound { return .failure }
            return CircuitBreaker.Policy.defaultClassification(outcome)
        })
        // </article-sample>
        return strict
    }

    static func state(breaker: CircuitBreaker) {
        // <article-sample>
        if breaker.state(forKey: "https://api.example.com") == .open {
            print("the API is resting")
        }
        // </article-sample>
    }

    static func hedging() async throws {
        // <article-sample>
        var options = RequestOptions()
        options.hedging = HedgingPolicy(delay: .percentile(0.95, fallback: .milliseconds(200)))
        let request = Request<[String]>(path: "/films", options: options)

        let hedged = LiveAPIClient(configuration: .init(
            baseURL: URL(string: "https://api.example.com")!,
            middlewares: [RetryMiddleware(), HedgingMiddleware()]
        ))
        let films = try await hedged.send(request)
        // </article-sample>
        _ = films
    }
}

@Suite("Resilience article samples")
struct ResilienceArticleTests {
    @Test("every Swift sample of ResilienceBeyondRetries.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(
            document: "Sources/NetworkingKit/NetworkingKit.docc/ResilienceBeyondRetries.md", testFile: #filePath, marker: "article-sample")
    }

    @Test("the strict policy of the article counts a 404 as a failure, the rest as the default does")
    func strictPolicy() {
        let strict = ResilienceArticleSamples.classification()
        #expect(strict.classify(.success(HTTPResponse(status: .notFound))) == .failure)
        #expect(strict.classify(.success(HTTPResponse(status: .ok))) == .success)
        #expect(strict.classify(.success(HTTPResponse(status: .badGateway))) == .failure)
    }
}
