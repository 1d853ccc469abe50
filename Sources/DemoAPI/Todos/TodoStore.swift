#if DemoAPI
/// A todo in jsonplaceholder's shape; unlike the rest of DemoAPI its keys are camelCase
/// (`userId`), exactly as that public API spells them.
struct Todo: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var completed: Bool
}

/// The todos of one server: 200 seeded ones (10 users × 20), changed by POST/PUT/PATCH/DELETE.
struct TodoStore: Sendable {
    /// Sorted by id, which is also the order `GET /todos` lists them in.
    private(set) var todos: [Todo]
    private var nextID: Int

    /// The deterministic seed: todo `n` belongs to user `(n - 1) / 20 + 1`, its title is built from
    /// fixed word lists, and it is completed when `n % 5` is 0 or 3 (40 % of them).
    static func seeded() -> TodoStore {
        let todos = (1...200).map { id in
            Todo(userId: (id - 1) / 20 + 1, id: id, title: seedTitle(id), completed: id % 5 == 0 || id % 5 == 3)
        }
        return TodoStore(todos: todos, nextID: 201)
    }

    private static let verbs = [
        "Buy", "Call", "Write", "Review", "Fix", "Plan", "Clean", "Read", "Book", "Water",
        "Update", "Walk", "Pay", "Cook", "Email", "Organise", "Repair", "Sort", "Test", "Pack",
    ]
    private static let objects = [
        "the groceries", "the dentist", "a blog post", "the pull request", "the leaky tap",
        "the summer trip", "the garage", "the next chapter", "the concert tickets", "the plants",
        "the résumé", "the dog", "the electricity bill", "dinner", "the landlord",
        "the bookshelf", "the bike", "the holiday photos", "the backups", "the suitcase",
    ]

    private static func seedTitle(_ id: Int) -> String {
        let index = id - 1
        return "\(verbs[index % verbs.count]) \(objects[(index * 7 + index / 20) % objects.count])"
    }

    func todo(id: Int) -> Todo? {
        todos.first { $0.id == id }
    }

    /// The most todos a server holds, so clients cannot grow it without bound.
    static let capacity = 10_000

    /// Adds a todo with the next free id and returns it; `nil` when the store is full.
    mutating func create(userId: Int, title: String, completed: Bool) -> Todo? {
        guard todos.count < Self.capacity else { return nil }
        let todo = Todo(userId: userId, id: nextID, title: title, completed: completed)
        nextID += 1
        todos.append(todo)
        return todo
    }

    /// Changes the todo with `id` through `change`; `nil` if there is none.
    mutating func update(id: Int, _ change: (inout Todo) -> Void) -> Todo? {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return nil }
        change(&todos[index])
        todos[index].id = id
        return todos[index]
    }

    /// Removes the todo with `id`; `false` if there was none.
    mutating func delete(id: Int) -> Bool {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return false }
        todos.remove(at: index)
        return true
    }
}
#endif
