import ExampleServices
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("The seeds' example services")
struct ExampleServicesTests {
    static let toyStory = PixarFilm(
        id: "toy-story", title: "Toy Story", releaseYear: 1995, releaseDate: Date(timeIntervalSince1970: 816_998_400),
        studio: "Pixar", synopsis: "A cowboy doll is threatened by a new spaceman action figure.")

    @Test("FilmsService sends the Pixar endpoints and decodes their answers")
    func films() async throws {
        let (client, transport) = makeClient { request in
            switch (request.method, request.path) {
            case (.get, "/v1/films"): return try .json([Self.toyStory])
            case (.get, "/v1/films/toy-story"): return try .json(Self.toyStory)
            case (.get, "/v1/films/toy-story/characters"):
                return try .json([PixarCharacter(id: "woody", name: "Woody", filmId: "toy-story", voiceActor: "Tom Hanks")])
            case (.get, "/v1/search"): return try .json(SearchResults(films: [Self.toyStory], characters: []))
            case (.post, "/v1/films/toy-story/rating"):
                return try .json(RatingReceipt(filmId: "toy-story", rating: 5, averageRating: 4.5, ratingsCount: 2))
            default: return .json(#"{"message":"No such film"}"#, status: .notFound)
            }
        }
        let service = FilmsService(client: client)
        #expect(try await service.films() == [Self.toyStory])
        #expect(try await service.film(id: "toy-story").title == "Toy Story")
        #expect(try await service.characters(filmID: "toy-story").map(\.name) == ["Woody"])
        #expect(try await service.search("toy & friends").films.count == 1)
        #expect(try await service.rate(filmID: "toy-story", rating: 5).averageRating == 4.5)
        #expect(transport.requests.last?.bodyText == #"{"rating":5}"#)
        #expect(transport.requests[3].query == "q=toy%20%26%20friends")

        do {
            _ = try await service.film(id: "cars 4")
            Issue.record("expected notFound")
        } catch NetworkError.notFound(let failure) {
            #expect(failure.request.url?.path == "/v1/films/cars 4")
            #expect(failure.request.url?.absoluteString.hasSuffix("/films/cars%204") == true)
        }
    }

    @Test("TodosService uses camelCase JSON and the typed requests")
    func todos() async throws {
        let transport = StubTransport { request in
            switch (request.method, request.path) {
            case (.get, "/todos"): return .json(#"[{"userId":1,"id":1,"title":"Buy milk","completed":false}]"#)
            case (.get, "/todos/1"): return .json(#"{"userId":1,"id":1,"title":"Buy milk","completed":false}"#)
            case (.post, "/todos"): return .json(#"{"userId":2,"id":201,"title":"Shop bananas","completed":false}"#, status: .created)
            case (.patch, "/todos/1"): return .json(#"{"userId":1,"id":1,"title":"Buy milk","completed":true}"#)
            case (.delete, "/todos/1"): return .status(.ok)
            default: return .json("{}", status: .notFound)
            }
        }
        let service = TodosService(
            client: TodosService.makeClient(baseURL: URL(string: "https://jsonplaceholder.test")!, transport: transport))
        #expect(try await service.getTodos().map(\.title) == ["Buy milk"])
        #expect(try await service.getTodo(withId: 1)?.id == 1)
        #expect(try await service.getTodo(withId: 99) == nil)
        let created = try await service.createTodo(userId: 2, title: "Shop bananas")
        #expect(created.id == 201)
        let sentBody = try #require(transport.requests[3].body)
        let json = try #require(try JSONSerialization.jsonObject(with: sentBody) as? [String: Any])
        #expect(json["userId"] as? Int == 2)
        #expect(json["title"] as? String == "Shop bananas")
        #expect(try await service.setCompleted(true, id: 1).completed)
        #expect(transport.requests[4].bodyText == #"{"completed":true}"#)
        try await service.deleteTodo(id: 1)
        #expect(transport.requests.last?.method == .delete)
    }
}
