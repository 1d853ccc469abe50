// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift samples of the Testing DocC article, compiled: each sits between `article-sample`
// markers, exactly as in the article, and the test below fails when they differ. The sample that
// is itself a test (`loadsFilms`) sits in a suite of its own, so it also runs, as written.

// Stand-ins shared with other sample files are in SampleStandIns.swift.

/// A stand-in for DemoAPI's `DemoServer`, with the same `withServer(_:)`, `baseURL` and
/// `stats.count(_:)`: the DemoAPI library is a dependency of the integration tests, not of this
/// target.
private final class DemoServer: Sendable {
    final class Stats: Sendable {
        func count(_ route: String) -> Int { 0 }
    }

    let baseURL = URL(fileURLWithPath: "/")
    let stats = Stats()

    @discardableResult
    static func withServer<T>(_ body: (DemoServer) async throws -> T) async throws -> T {
        try await body(DemoServer())
    }
}

private enum TestingArticleSamples {
    /// The sample is a lone expression: it is the value of this property.
    static var manifest: ManifestTarget {
        // <article-sample>
        // Package.swift
        .testTarget(name: "AppTests", dependencies: ["App", .product(name: "NetworkingKitTesting", package: "NetworkingKit")])
        // </article-sample>
    }

    @Suite("Testing article: the MockAPIClient sample, run as written")
    struct MockTheClient {
        // <article-sample>
        @Test func loadsFilms() async throws {
            let mock = MockAPIClient()
            mock.stub([PixarFilm].self, with: [.toyStory, .up])
            mock.stub(PixarAPIEndpoint.filmDetail(id: "cars"), throwing: .timeout(nil))

            let model = FilmsViewModel(client: mock)
            await model.load()

            #expect(model.films.count == 2)
            #expect(mock.calls.map(\.path) == ["/films"])
        }
        // </article-sample>
    }

    static func stubTheTransport() async throws {
        // <article-sample>
        let transport = StubTransport(routes: [
            .get("/v1/films", try .json([PixarFilm.toyStory])),
            .post("/v1/films/up/rating", .status(.created)),
            .get("/v1/offline", .transportFailure(.notConnected)),
        ])
        let client = LiveAPIClient(baseURL: URL(string: "https://api.test/v1")!, transport: transport)

        let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        #expect(transport.requests(to: "/v1/films").count == 1)
        // </article-sample>
        _ = films
    }

    static func controlTime() async {
        // <article-sample>
        let clock = ImmediateClock()
        let transport = StubTransport { _ in .status(.serviceUnavailable) }
        let client = LiveAPIClient(
            baseURL: URL(string: "https://api.test")!, transport: transport,
            middlewares: [RetryMiddleware(policy: .default, clock: clock, random: { 1 })])

        await #expect(throws: NetworkError.self) {
            try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        }
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
        // </article-sample>
    }

    static func keepURLSession() {
        // <article-sample>
        MockURLProtocol.register(host: "films.test") { request in
            try MockURLProtocol.json([PixarFilm.toyStory], for: request)
        }
        let transport = URLSessionTransport(configuration: MockURLProtocol.configuration())
        let client = LiveAPIClient(baseURL: URL(string: "https://films.test")!, transport: transport)
        // </article-sample>
        _ = client
    }

    static func runAgainstDemoAPI() async throws {
        // <article-sample>
        try await DemoServer.withServer { server in
            let client = LiveAPIClient(baseURL: server.baseURL)
            let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
            #expect(!films.isEmpty)
            #expect(server.stats.count("GET /films") == 1)
        }
        // </article-sample>
    }
}

@Suite("Testing article samples")
struct TestingArticleTests {
    @Test("every Swift sample of Testing.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/Testing.md", testFile: #filePath, marker: "article-sample")
    }
}
