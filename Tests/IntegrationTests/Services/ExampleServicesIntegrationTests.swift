import DemoAPI
import ExampleServices
import Foundation
import NetworkingKit
import Testing

/// The seeds' services, written as an app would write them, against the real DemoAPI.
@Suite("Example services end to end", .timeLimit(.minutes(3)))
struct ExampleServicesIntegrationTests {
    @Test(
        "a todo written by a client with the default snake_case coders is accepted as it is, and its camelCase answer reads back",
        arguments: TransportKind.allCases)
    func todoWithDefaultCoders(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = LiveAPIClient(baseURL: server.baseURL, transport: kind.transport)
            let todo = TodoDTO(userId: 3, title: "Default coders")
            let echo = try await client.send(Request<Echo>(path: "/echo", method: .post, body: .json(todo)))
            #expect(echo.body?.contains(#""user_id":3"#) == true, "sent \(echo.body ?? "")")
            let created = try await client.send(Request<TodoDTO>(path: "/todos", method: .post, body: .json(todo)))
            #expect(created.userId == 3)
            #expect(created.title == "Default coders")
            #expect(created.id != nil)
        }
    }

    @Test("FilmsService: list, detail, characters, search, rating", arguments: TransportKind.allCases)
    func films(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let films = FilmsService(client: LiveAPIClient(baseURL: server.baseURL, transport: kind.transport))

            let all = try await films.films()
            #expect(all.count == 8)
            #expect(all.contains { $0.id == "toy-story" && $0.releaseYear == 1995 })

            let up = try await films.film(id: "up")
            #expect(up.title == "Up")
            #expect(Calendar(identifier: .gregorian).component(.year, from: up.releaseDate) == up.releaseYear)

            let characters = try await films.characters(filmID: "toy-story")
            #expect(characters.contains { $0.name == "Woody" })

            let results = try await films.search("TOY")
            #expect(results.films.map(\.id) == ["toy-story"])

            let receipt = try await films.rate(filmID: "up", rating: 4, comment: "Balloons!")
            #expect(receipt.filmId == "up")
            #expect(receipt.ratingsCount >= 1)

            let error = await networkError { _ = try await films.film(id: "cars-4") }
            guard case .notFound? = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("TodosService: list, create, update, complete, delete", arguments: TransportKind.allCases)
    func todos(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let todos = TodosService(client: TodosService.makeClient(baseURL: server.baseURL, transport: kind.transport))
            #expect(try await todos.getTodos().count == 200)
            #expect(try await todos.getTodos(userID: 3).allSatisfy { $0.userId == 3 })

            let created = try await todos.createTodo(userId: 2, title: "Write the conformance suite")
            let id = try #require(created.id)
            #expect(created.completed == false)

            let updated = try await todos.updateTodo(TodoDTO(id: id, userId: 2, title: "Renamed", completed: false), id: id)
            #expect(updated.title == "Renamed")
            #expect(try await todos.setCompleted(true, id: id).completed)

            try await todos.deleteTodo(id: id)
            #expect(try await todos.getTodo(withId: id) == nil)

            let invalid = await networkError { _ = try await todos.createTodo(userId: 0, title: "") }
            guard case .validationFailed(let failure)? = invalid else {
                Issue.record("expected validationFailed, got \(String(describing: invalid))")
                return
            }
            #expect(Set(failure.fieldErrors.map(\.field)) == ["title", "userId"])
        }
    }

    @Test("paginated todos carry a Link header and the total count", arguments: TransportKind.allCases)
    func pagination(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = TodosService.makeClient(baseURL: server.baseURL, transport: kind.transport)
            let page = try await client.response(
                Request<[TodoDTO]>(
                    path: "/todos", query: [URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "limit", value: "10")]))
            #expect(page.value.count == 10)
            #expect(page.value.first?.id == 11)
            #expect(page.response.headerFields[HTTPField.Name("X-Total-Count")!] == "200")
            let link = try #require(page.response.headerFields[HTTPField.Name("Link")!])
            #expect(link.contains("<\(server.baseURL.absoluteString)/todos?page=3&limit=10>; rel=\"next\""))
            #expect(link.contains("rel=\"prev\""))
        }
    }
}
