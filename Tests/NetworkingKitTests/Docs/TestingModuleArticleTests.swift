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

// The Swift samples of NetworkingKitTesting's DocC catalog page, compiled: each sits between
// `article-sample` markers, exactly as in the page (imports aside), and the test below fails when
// they differ. The samples that are themselves tests sit in suites of their own, so they also
// run, as written.

// Stand-ins shared with other sample files are in SampleStandIns.swift.

private enum TestingModuleArticleSamples {
    /// The sample is a lone expression: it is the value of this property.
    static var manifest: ManifestTarget {
        // <article-sample>
        .testTarget(
            name: "AppTests",
            dependencies: ["App", .product(name: "NetworkingKitTesting", package: "NetworkingKit")]
        )
        // </article-sample>
    }

    @Suite("NetworkingKitTesting page: the MockAPIClient sample, run as written")
    struct MockTheClient {
        // <article-sample>

        @Test func showsFilmsThenAnError() async throws {
            let mock = MockAPIClient()
            mock.stub(PixarAPIEndpoint.films, answers: [
                .value([PixarFilm.toyStory, .up]),
                .failure(.timeout(nil)),
            ])

            let model = FilmsViewModel(client: mock)
            await model.load()
            #expect(model.films.count == 2)

            await model.load()
            #expect(model.errorMessage != nil)
            #expect(mock.calls(to: "/films").count == 2)
        }
        // </article-sample>
    }

    @Suite("NetworkingKitTesting page: the StubTransport sample, run as written")
    struct StubTheTransport {
        // <article-sample>
        @Test func ratesAFilm() async throws {
            let transport = StubTransport(routes: [
                .get("/v1/films", try .json([PixarFilm.toyStory])),
                .post("/v1/films/up/rating", .status(.created)),
                StubRoute(.delete, .prefix("/v1/todos/")) { _ in .status(.noContent) },
            ])
            let client = LiveAPIClient(baseURL: URL(string: "https://api.test/v1")!, transport: transport)

            try await client.request(PixarAPIEndpoint.rateFilm(id: "up", rating: FilmRating(rating: 5)))

            let sent = try #require(transport.requests(to: "/v1/films/up/rating").first)
            #expect(sent.method == .post)
            #expect(try sent.jsonBody(as: FilmRating.self) == FilmRating(rating: 5))
        }
        // </article-sample>
    }

    static func controlTime() {
        // <article-sample>
        let clock = ImmediateClock()
        let retry = RetryMiddleware(policy: .default, clock: clock, random: { 1 })
        // ... a call that fails twice with 503 ...
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
        // </article-sample>
        _ = retry
    }

    @Suite("NetworkingKitTesting page: the MockURLProtocol sample, run as written")
    struct StubURLSession {
        // <article-sample>
        @Test func loadsFilmsOverURLSession() async throws {
            MockURLProtocol.register(host: "films.test") { request in
                #expect(request.httpMethod == "GET")
                return try MockURLProtocol.json([PixarFilm.toyStory], for: request)
            }
            defer { MockURLProtocol.unregister(host: "films.test") }

            let session = URLSession(configuration: MockURLProtocol.configuration())
            let (data, _) = try await session.data(from: URL(string: "https://films.test/films")!)
            #expect(!data.isEmpty)
        }
        // </article-sample>
    }
}

@Suite("NetworkingKitTesting page samples")
struct TestingModuleArticleTests {
    @Test("every Swift sample of NetworkingKitTesting.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(
            document: "Sources/NetworkingKitTesting/NetworkingKitTesting.docc/NetworkingKitTesting.md",
            droppingImports: true, testFile: #filePath, marker: "article-sample")
    }
}
