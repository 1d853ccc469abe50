// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift samples of NetworkingKitTesting's doc comments, compiled: each sits between
// `doc-sample` markers, exactly as in its doc comment, inside a function whose parameters supply
// what the sample assumes, and the test below fails when a sample and its copy differ.

/// Stand-ins for what the samples take from the tests around them (more in SampleStandIns.swift).
private struct Todo: Codable, Sendable {
    let title: String
}

private enum Films {
    static let list = Request<[PixarFilm]>(path: "/films")
}

private enum DocCommentTestingSamples {
    static func immediateClockSample(policy: RetryPolicy) {
        // <doc-sample>
        let clock = ImmediateClock()
        let retry = RetryMiddleware(policy: policy, clock: clock, random: { 1 })
        // ... run a call that fails twice ...
        #expect(clock.sleeps == [.milliseconds(500), .seconds(1)])
        // </doc-sample>
        _ = retry
    }

    static func manualClockSample(url: URL, transport: StubTransport) {
        // <doc-sample>
        let clock = ManualClock()
        var configuration = LiveAPIClient.Configuration(baseURL: url, transport: transport, callTimeout: .seconds(10))
        configuration.clock = clock
        // ... start a call the transport never answers, then:
        clock.advance(by: .seconds(10))  // the call ends with NetworkError.timeout
        // </doc-sample>
        _ = configuration
    }

    static func stubbingSample(mock: MockAPIClient, films: [PixarFilm], page2: [Todo]) {
        // <doc-sample>
        mock.stub([PixarFilm].self, with: films)
        mock.stub(PixarAPIEndpoint.filmDetail(id: "up"), with: PixarFilm.up)
        mock.stub(Films.list, throwing: .timeout(nil))
        mock.stub(.where { $0.queryValue("page") == "2" }, with: page2)
        // </doc-sample>
    }

    static func mockAPIClientSample(failure: HTTPFailure, page1: [Todo], page2: [Todo]) async {
        // <doc-sample>
        let mock = MockAPIClient()
        mock.stub([PixarFilm].self, with: [.toyStory, .up])              // by response type
        mock.stub(PixarAPIEndpoint.filmDetail(id: "up"), with: PixarFilm.up)  // by path + method
        mock.stub(.path("/films/cars"), throwing: .notFound(failure))       // an error
        mock.stub([Todo].self, answers: [.value(page1), .value(page2)])     // first call, then second

        let model = FilmsViewModel(client: mock)
        await model.load()
        #expect(mock.calls.map(\.path) == ["/films"])
        // </doc-sample>
    }

    static func callSample(mock: MockAPIClient) throws {
        // <doc-sample>
        let call = try #require(mock.calls.first)
        #expect(call.method == .post && call.path == "/films/up/rating")
        #expect(try call.jsonBody(as: FilmRating.self) == FilmRating(rating: 5))
        // </doc-sample>
    }

    static func matchSample(mock: MockAPIClient, films: [PixarFilm], up: PixarFilm, failure: HTTPFailure) {
        // <doc-sample>
        mock.stub(.endpoint(PixarAPIEndpoint.films), with: films)
        mock.stub(.path("/films/up", method: .get), with: up)
        mock.stub(.where { $0.path.hasPrefix("/films/") }, throwing: .notFound(failure))
        // </doc-sample>
    }

    static func answerSample(mock: MockAPIClient, firstPage: [Todo], lastPage: [Todo]) {
        // <doc-sample>
        // Two pages linked by a `Link` header, for `pages(following:)`.
        mock.stub([Todo].self, answers: [
            .response(firstPage, headers: ["Link": "<https://mock.invalid/todos?page=2>; rel=\"next\""]),
            .value(lastPage),
        ])
        // </doc-sample>
    }

    static func mockURLProtocolSample() async throws {
        // <doc-sample>
        MockURLProtocol.register(host: "films.test") { request in
            #expect(request.httpMethod == "GET")
            return try MockURLProtocol.json([PixarFilm.toyStory], for: request)
        }
        let transport = URLSessionTransport(configuration: MockURLProtocol.configuration())
        let client = LiveAPIClient(baseURL: URL(string: "https://films.test")!, transport: transport)
        let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        // </doc-sample>
        _ = films
    }

    static func progressRecorderSample(client: LiveAPIClient, destination: URL) async throws {
        // <doc-sample>
        let progress = ProgressRecorder()
        _ = try await client.download(Request<Data>(path: "/films/up/trailer"), to: destination, progress: progress.handler)
        #expect(progress.isMonotone(endingAt: 4_194_304))
        // </doc-sample>
    }

    static func recordedRequestSample(transport: StubTransport) throws {
        // <doc-sample>
        let sent = try #require(transport.requests(to: "/v1/films/up/rating").first)
        #expect(sent.method == .post)
        #expect(try sent.jsonBody(as: FilmRating.self) == FilmRating(rating: 5))
        #expect(sent.queryValue("notify") == "true")
        // </doc-sample>
    }

    static func faultsSample(films: [PixarFilm], chunks: [Data], trailerStart: Data) throws {
        // <doc-sample>
        let clock = ImmediateClock()
        let transport = StubTransport(routes: [
            .get("/films", try .json(films).delayed(by: .seconds(2), clock: clock)),
            .get("/posters", .slowBody(chunks, interval: .milliseconds(100), clock: clock)),
            .get("/trailer", .truncated(trailerStart, declaredLength: 10_000)),
            .get("/offline", .failure(.transport(TransportFailure(kind: .notConnected)))),
        ])
        // </doc-sample>
        _ = transport
    }

    static func stubRouteSample(posterBytes: Data) throws {
        // <doc-sample>
        let transport = StubTransport(routes: [
            .get("/v1/films", try .json([PixarFilm.toyStory])),
            .post("/v1/films/up/rating", .status(.created)),
            StubRoute(.delete, .prefix("/v1/todos/")) { _ in .status(.noContent) },
            StubRoute(.get, .matching { $0.hasSuffix("/poster") }, .data(posterBytes)),
        ])
        // </doc-sample>
        _ = transport
    }

    static func stubTransportSample() async throws {
        // <doc-sample>
        let transport = StubTransport { request in
            switch request.path {
            case "/films": try .json([PixarFilm.toyStory])
            default: .status(.notFound)
            }
        }
        let client = LiveAPIClient(baseURL: URL(string: "https://api.test")!, transport: transport)
        _ = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        #expect(transport.requests.map(\.path) == ["/films"])
        // </doc-sample>
    }
}

@Suite("Doc-comment samples: NetworkingKitTesting")
struct DocCommentSamplesTestingTests {
    @Test("every Swift sample in these doc comments is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSameDocSamples(
            sources: [
                "Sources/NetworkingKitTesting/ImmediateClock.swift",
                "Sources/NetworkingKitTesting/ManualClock.swift",
                "Sources/NetworkingKitTesting/MockAPIClient+Stubbing.swift",
                "Sources/NetworkingKitTesting/MockAPIClient.swift",
                "Sources/NetworkingKitTesting/MockAPIClientCall.swift",
                "Sources/NetworkingKitTesting/MockURLProtocol.swift",
                "Sources/NetworkingKitTesting/ProgressRecorder.swift",
                "Sources/NetworkingKitTesting/RecordedRequest+Assertions.swift",
                "Sources/NetworkingKitTesting/StubResponse+Faults.swift",
                "Sources/NetworkingKitTesting/StubRoute.swift",
                "Sources/NetworkingKitTesting/StubTransport.swift",
            ],
            testFile: #filePath)
    }
}
