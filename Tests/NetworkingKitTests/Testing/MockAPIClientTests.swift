import ExampleServices
import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

/// A view model as an app would write one: it depends on `any APIClient`, never on the network.
@MainActor
private final class FilmListModel {
    private let films: FilmsService
    private(set) var titles: [String] = []
    private(set) var errorMessage: String?

    init(client: any APIClient) {
        self.films = FilmsService(client: client)
    }

    func load() async {
        do {
            titles = try await films.films().map(\.title)
            errorMessage = nil
        } catch let error as NetworkError {
            errorMessage = error.localizedDescription
        } catch {
            errorMessage = "\(error)"
        }
    }
}

private func film(_ id: String, _ title: String) -> PixarFilm {
    PixarFilm(
        id: id, title: title, releaseYear: 1995, releaseDate: Date(timeIntervalSince1970: 0), studio: "Pixar",
        synopsis: "")
}

private func notFound(_ path: String) -> NetworkError {
    .notFound(
        HTTPFailure(
            request: RequestSummary(method: .get, url: URL(string: "https://mock.invalid\(path)")),
            response: HTTPResponse(status: .notFound), body: Data()))
}

@Suite("MockAPIClient")
struct MockAPIClientTests {
    @Test("a view model shows the films the mock was scripted with")
    @MainActor
    func success() async {
        let mock = MockAPIClient()
        mock.stub([PixarFilm].self, with: [film("1", "Toy Story"), film("2", "Up")])
        let model = FilmListModel(client: mock)

        await model.load()

        #expect(model.titles == ["Toy Story", "Up"])
        #expect(model.errorMessage == nil)
        #expect(mock.calls.map(\.path) == ["/films"])
        #expect(mock.calls.first?.responseType == String(describing: [PixarFilm].self))
    }

    @Test("a view model shows the error the mock was scripted with")
    @MainActor
    func failure() async {
        let mock = MockAPIClient()
        mock.stub(PixarAPIEndpoint.films, throwing: .timeout(nil))
        let model = FilmListModel(client: mock)

        await model.load()

        #expect(model.titles.isEmpty)
        #expect(model.errorMessage == NetworkError.timeout(nil).localizedDescription)
    }

    @Test("an endpoint stub wins over a type stub, and matches by path and method")
    func endpointBeforeType() async throws {
        let mock = MockAPIClient()
        mock.stub(PixarFilm.self, with: film("0", "Any film"))
        mock.stub(PixarAPIEndpoint.filmDetail(id: "up"), with: film("up", "Up"))
        let service = FilmsService(client: mock)

        #expect(try await service.film(id: "up").title == "Up")
        #expect(try await service.film(id: "cars").title == "Any film")
    }

    @Test("a type stub made through .type(_:) also yields to an endpoint stub, whatever the order")
    func typeMatchYields() async throws {
        let mock = MockAPIClient()
        mock.stub(PixarAPIEndpoint.filmDetail(id: "up"), with: film("up", "Up"))
        mock.stub(.type(PixarFilm.self), with: film("0", "Any film"))
        let service = FilmsService(client: mock)

        #expect(try await service.film(id: "up").title == "Up")
        #expect(try await service.film(id: "cars").title == "Any film")
    }

    @Test("a sequence answers in order, then repeats its last answer")
    func sequence() async throws {
        let mock = MockAPIClient()
        mock.stub(
            PixarAPIEndpoint.films,
            answers: [
                .failure(.transport(TransportFailure(kind: .connectionLost))),
                .value([film("1", "Toy Story")]),
                .value([film("1", "Toy Story"), film("2", "Up")]),
            ])
        let service = FilmsService(client: mock)

        await #expect(throws: NetworkError.self) { try await service.films() }
        #expect(try await service.films().count == 1)
        #expect(try await service.films().count == 2)
        #expect(try await service.films().count == 2)
        #expect(mock.calls.count == 4)
    }

    @Test("requests and predicates can be stubbed, and a response carries the encoded value")
    func requestsAndPredicates() async throws {
        let mock = MockAPIClient()
        let list = Request<[PixarFilm]>(path: "/films", query: [URLQueryItem(name: "page", value: "2")])
        mock.stub(list, with: [film("1", "Toy Story")])
        mock.stub(.where { $0.queryValue("q") == "woody" }, throwing: notFound("/search"))

        let response = try await mock.response(list)
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(try LiveAPIClient.Configuration.defaultDecoder().decode([PixarFilm].self, from: response.data).count == 1)
        #expect(mock.calls.first?.queryValue("page") == "2")

        let error = await networkError { _ = try await FilmsService(client: mock).search("woody") }
        #expect(error?.statusCode == 404)
    }

    @Test("an answer can carry a status and header fields; a scripted event stream is read by events(for:)")
    func statusAndHeaders() async throws {
        let mock = MockAPIClient()
        let created = Request<PixarFilm>(path: "/films", method: .post)
        mock.stub(created, answers: [.response(film("9", "Elio"), status: .created, headers: ["Location": "/films/9"])])
        let response = try await mock.response(created)
        #expect(response.status == .created)
        #expect(response.headerFields[.location] == "/films/9")
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(response.value.title == "Elio")

        let feed = Request<Data>(path: "/feed")
        mock.stub(
            feed,
            answers: [
                .response(Data("id: 1\ndata: hello\n\n".utf8), headers: ["Content-Type": "text/event-stream"]),
                .response(Data(), status: .noContent),
            ])
        var options = EventStreamOptions()
        options.clock = ImmediateClock()
        var events: [ServerSentEvent] = []
        for try await event in mock.events(feed, options: options) { events.append(event) }
        #expect(events == [ServerSentEvent(data: "hello", id: "1")])
        #expect(mock.calls(to: "/feed").count == 2)
        #expect(mock.calls(to: "/feed").last?.headers["Last-Event-ID"] == "1")
    }

    @Test("the recorded call holds the body as the live client would send it")
    func recordedBody() async throws {
        let mock = MockAPIClient()
        mock.stub(RatingReceipt.self, with: RatingReceipt(filmId: "up", rating: 5, averageRating: 4.5, ratingsCount: 2))

        _ = try await FilmsService(client: mock).rate(filmID: "up", rating: 5, comment: "Lovely")

        let call = try #require(mock.calls.first)
        #expect(call.method == .post)
        #expect(call.path == "/films/up/rating")
        #expect(try call.jsonBody(as: FilmRating.self) == FilmRating(rating: 5, comment: "Lovely"))
        #expect(call.bodyText == #"{"comment":"Lovely","rating":5}"#)
        #expect(call.url?.absoluteString == "https://mock.invalid/films/up/rating")
    }

    @Test("an unscripted call fails with an error that names it")
    func unscripted() async throws {
        let mock = MockAPIClient()

        let error = await networkError { _ = try await FilmsService(client: mock).search("buzz") }

        guard case .unknown(let underlying as MockAPIClient.ScriptError) = error else {
            Issue.record("expected an unscripted-call error, got \(String(describing: error))")
            return
        }
        #expect(underlying.call.path == "/search")
        #expect("\(underlying)".contains("GET /search?q=buzz as SearchResults"))
        // Also where an app shows errors to people: no "unexpected error" that hides the cause.
        #expect(error?.localizedDescription.contains("no answer scripted for GET /search?q=buzz") == true)
    }

    @Test("unscripted calls can be given a default error")
    func unscriptedDefault() async throws {
        let mock = MockAPIClient()
        mock.stubUnscripted(throwing: .cancelled)

        let error = await networkError { _ = try await FilmsService(client: mock).films() }

        guard case .cancelled = error else {
            Issue.record("expected .cancelled, got \(String(describing: error))")
            return
        }
    }

    @Test("a stub of another type than the one asked for fails clearly")
    func typeMismatch() async throws {
        let mock = MockAPIClient()
        mock.stub(PixarAPIEndpoint.films, with: "not films")

        let error = await networkError { _ = try await FilmsService(client: mock).films() }

        guard case .unknown(MockAPIClient.ScriptError.typeMismatch(_, let scripted)) = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(scripted == "String")
    }

    @Test("100 concurrent calls are all answered and all recorded")
    func concurrency() async throws {
        let mock = MockAPIClient()
        mock.stub(PixarFilm.self, with: film("1", "Toy Story"))
        let service = FilmsService(client: mock)

        let titles = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<100 {
                group.addTask { try await service.film(id: "\(index)").title }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }

        #expect(titles.count == 100)
        #expect(Set(mock.calls.map(\.path)) == Set((0..<100).map { "/films/\($0)" }))
    }

    @Test("concurrent calls take a sequence's answers one each")
    func concurrentSequence() async throws {
        let mock = MockAPIClient()
        mock.stub(Int.self, answers: (0..<100).map { .value($0) })
        let request = Request<Int>(path: "/counter")

        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await mock.send(request) }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        #expect(values.sorted() == Array(0..<100))
    }
}
