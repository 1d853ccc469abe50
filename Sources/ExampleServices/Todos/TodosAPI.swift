import Foundation
public import NetworkingKit

/// The todos API (seed 003), as typed requests: each value carries its response type.
public enum TodosAPI {
    /// All todos, or one user's.
    public static func list(userID: Int? = nil) -> Request<[TodoDTO]> {
        Request(path: "/todos", query: userID.map { [URLQueryItem(name: "userId", value: String($0))] } ?? [])
    }

    /// One todo.
    public static func get(id: Int) -> Request<TodoDTO> {
        Request(path: "/todos/\(id)")
    }

    /// Creates a todo; the server answers 201 with the stored todo.
    public static func create(_ todo: TodoDTO) -> Request<TodoDTO> {
        Request(path: "/todos", method: .post, body: .json(todo))
    }

    /// Replaces a todo.
    public static func update(_ todo: TodoDTO, id: Int) -> Request<TodoDTO> {
        Request(path: "/todos/\(id)", method: .put, body: .json(todo))
    }

    /// Changes some fields of a todo.
    public static func patch(id: Int, _ patch: TodoPatch) -> Request<TodoDTO> {
        Request(path: "/todos/\(id)", method: .patch, body: .json(patch))
    }

    /// Deletes a todo.
    public static func delete(id: Int) -> Request<Void> {
        Request(path: "/todos/\(id)", method: .delete)
    }
}
