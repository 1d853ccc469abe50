/// A todo item in jsonplaceholder's shape (seed 003): camelCase keys.
public struct TodoDTO: Codable, Sendable, Hashable, Identifiable {
    /// The identifier; `nil` until the server has created the todo.
    public var id: Int?
    /// The owner.
    public var userId: Int
    /// What to do.
    public var title: String
    /// Whether it is done.
    public var completed: Bool

    /// Creates a todo.
    public init(id: Int? = nil, userId: Int, title: String, completed: Bool = false) {
        self.id = id
        self.userId = userId
        self.title = title
        self.completed = completed
    }
}

/// The fields of a partial update (`PATCH`); `nil` fields are left out of the body.
public struct TodoPatch: Codable, Sendable, Hashable {
    /// A new title.
    public var title: String?
    /// A new completion state.
    public var completed: Bool?

    /// Creates a patch.
    public init(title: String? = nil, completed: Bool? = nil) {
        self.title = title
        self.completed = completed
    }
}
