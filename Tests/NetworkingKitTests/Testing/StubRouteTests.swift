import ExampleServices
import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

private let baseURL = URL(string: "https://films.test/v1")!

private let toyStory = PixarFilm(
    id: "toy-story", title: "Toy Story", releaseYear: 1995, releaseDate: Date(timeIntervalSince1970: 0),
    studio: "Pixar", synopsis: "")

private func films(over transport: StubTransport) -> FilmsService {
    FilmsService(client: LiveAPIClient(baseURL: baseURL, transport: transport))
}

@Suite("StubTransport routes and faults")
struct StubRouteTests {
    @Test("each request is answered by the first route that matches its method and path")
    func routes() async throws {
        let transport = StubTransport(routes: [
            .get("/v1/films", try .json([toyStory])),
            .get(.prefix("/v1/films/"), try .json(toyStory)),
            StubRoute(.post, .matching { $0.hasSuffix("/rating") }) { request in
                let rating = try request.jsonBody(as: FilmRating.self)
                return try .json(RatingReceipt(filmId: "up", rating: rating.rating, averageRating: 4, ratingsCount: 1))
            },
        ])
        let service = films(over: transport)

        #expect(try await service.films() == [toyStory])
        #expect(try await service.film(id: "toy-story") == toyStory)
        #expect(try await service.rate(filmID: "up", rating: 4).rating == 4)

        #expect(transport.requests.map(\.path) == ["/v1/films", "/v1/films/toy-story", "/v1/films/up/rating"])
        let rating = try #require(transport.requests(to: "/v1/films/up/rating").first)
        #expect(rating.method == .post)
        #expect(try rating.jsonBody(as: FilmRating.self) == FilmRating(rating: 4))
    }

    @Test("a request no route matches gets a 404 naming it")
    func unmatched() async throws {
        let transport = StubTransport(routes: [.get("/v1/films", try .json([toyStory]))])

        let error = await networkError { _ = try await films(over: transport).search("woody") }

        #expect(error?.statusCode == 404)
        let message = String(decoding: error?.failure?.body ?? Data(), as: UTF8.self)
        #expect(message.contains("GET /v1/search"))
        #expect(transport.requests.first?.queryValue("q") == "woody")
    }

    @Test("delays, per answer and per transport, wait on the injected clock")
    func delays() async throws {
        let clock = ImmediateClock()
        let transport = StubTransport(
            routes: [.get("/v1/films", try .json([toyStory]).delayed(by: .seconds(2), clock: clock))],
            latency: .milliseconds(300), clock: clock)

        #expect(try await films(over: transport).films() == [toyStory])
        #expect(clock.sleeps == [.milliseconds(300), .seconds(2)])
    }

    @Test("a transport failure reaches the caller as that NetworkError")
    func transportFailure() async throws {
        let transport = StubTransport(routes: [.get("/v1/films", .transportFailure(.notConnected))])

        let error = await networkError { _ = try await films(over: transport).films() }

        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .notConnected)
    }

    @Test("a slow body arrives whole, chunk by chunk, waiting on the injected clock")
    func slowBody() async throws {
        let clock = ImmediateClock()
        let json = try LiveAPIClient.Configuration.defaultEncoder().encode([toyStory])
        let transport = StubTransport(routes: [
            .get("/v1/films", .slowBody(json, chunkSize: 16, interval: .milliseconds(50), clock: clock))
        ])

        #expect(try await films(over: transport).films() == [toyStory])
        let chunkCount = (json.count + 15) / 16
        #expect(clock.sleeps == Array(repeating: .milliseconds(50), count: chunkCount))
    }

    @Test("a body shorter than its Content-Length fails with .transport(.truncatedBody)")
    func truncatedBody() async throws {
        let transport = StubTransport(routes: [
            .get("/v1/films", .truncated(Data(#"[{"id":"toy"#.utf8), declaredLength: 500))
        ])

        let error = await networkError { _ = try await films(over: transport).films() }

        guard case .transport(let failure) = error else {
            Issue.record("expected a truncated body, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .truncatedBody)
        #expect(failure.request?.url?.path == "/v1/films")
    }

    @Test("a closure transport keeps working, and records query and form bodies")
    func closureTransport() async throws {
        let transport = StubTransport { _ in .status(.noContent) }
        let client = LiveAPIClient(baseURL: baseURL, transport: transport)

        try await client.send(
            Request<Void>(
                path: "/login", method: .post, query: [URLQueryItem(name: "next", value: "a b&c")],
                body: .form(["user": "woody", "note": "to infinity"])))

        let sent = try #require(transport.requests.first)
        #expect(sent.queryItems == [URLQueryItem(name: "next", value: "a b&c")])
        #expect(sent.formFields.map(\.name) == ["note", "user"])
        #expect(sent.formFields.first?.value == "to infinity")
    }
}
