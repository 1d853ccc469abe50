public import Foundation
public import NetworkingKit

/// The todos part of an app's services layer (seed 003's `TodosAPIService`).
public struct TodosService: Sendable {
    private let client: any APIClient

    /// Creates the service on top of a client; see ``makeClient(baseURL:transport:middlewares:)``
    /// for one configured for this API's camelCase JSON.
    public init(client: any APIClient) {
        self.client = client
    }

    /// A client for a jsonplaceholder-style API, which uses camelCase keys: plain JSON coders in
    /// place of the default snake_case ones.
    public static func makeClient(
        baseURL: URL,
        transport: any HTTPTransport = URLSessionTransport.shared,
        middlewares: [any Middleware] = []
    ) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: baseURL,
                transport: transport,
                middlewares: middlewares,
                encoder: JSONEncoder(),
                decoder: JSONDecoder()
            ))
    }

    /// All todos, or one user's.
    public func getTodos(userID: Int? = nil) async throws -> [TodoDTO] {
        try await client.send(TodosAPI.list(userID: userID))
    }

    /// One todo, or `nil` when there is none with that id.
    public func getTodo(withId id: Int) async throws -> TodoDTO? {
        do {
            return try await client.send(TodosAPI.get(id: id))
        } catch NetworkError.notFound {
            return nil
        }
    }

    /// Creates a todo and returns it as stored, with its id.
    public func createTodo(userId: Int, title: String) async throws -> TodoDTO {
        try await client.send(TodosAPI.create(TodoDTO(userId: userId, title: title)))
    }

    /// Replaces a todo.
    public func updateTodo(_ todo: TodoDTO, id: Int) async throws -> TodoDTO {
        try await client.send(TodosAPI.update(todo, id: id))
    }

    /// Marks a todo done or not done.
    public func setCompleted(_ completed: Bool, id: Int) async throws -> TodoDTO {
        try await client.send(TodosAPI.patch(id: id, TodoPatch(completed: completed)))
    }

    /// Deletes a todo.
    public func deleteTodo(id: Int) async throws {
        try await client.send(TodosAPI.delete(id: id))
    }
}
