#if DemoAPI
import HTTPTypes  // names `HTTPFields`, which Hummingbird does not re-export
import Hummingbird
import NIOCore

/// `/todos` and `/todos/{id}`: a jsonplaceholder-style CRUD API with filters, pagination headers and
/// validation errors, for testing a client's request bodies and header handling. Its answers spell
/// keys in camelCase, as jsonplaceholder does (which NetworkingKit's default decoder reads as they
/// are); bodies may spell the user either way (`userId` or `user_id`).
@available(macOS 14, iOS 17, tvOS 17, *)
struct TodoRoutes: Sendable {
    let state: DemoState

    func register(on router: Router<DemoRequestContext>) {
        router.get("/todos") { request, _ in
            try list(request)
        }
        // Every todo as JSON lines, as an export endpoint streams them (what the samples of
        // `lines(_:as:)` read).
        router.get("/todos/export") { _, _ in
            var buffer = ByteBuffer()
            for todo in state.todos.withLock({ $0.todos }) {
                var line = try JSONBody.encode(todo)
                buffer.writeBuffer(&line)
                buffer.writeString("\n")
            }
            var headers = HTTPFields()
            headers[.contentType] = "application/x-ndjson"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
        }
        router.post("/todos") { request, _ in
            try await create(request)
        }
        router.get("/todos/{id}") { _, context in
            let id = try todoID(context)
            guard let todo = state.todos.withLock({ $0.todo(id: id) }) else { throw notFound(id) }
            return try JSONBody.response(todo)
        }
        router.put("/todos/{id}") { request, context in
            try await replace(request, context)
        }
        router.patch("/todos/{id}") { request, context in
            try await patch(request, context)
        }
        router.delete("/todos/{id}") { _, context in
            let id = try todoID(context)
            guard state.todos.withLock({ $0.delete(id: id) }) else { throw notFound(id) }
            return Response(status: .noContent)
        }
    }

    private func list(_ request: Request) throws -> Response {
        let userID = try request.queryInt("userId", in: 1...Int(Int32.max))
        var completed: Bool?
        if let raw = request.query("completed") {
            guard raw == "true" || raw == "false" else {
                throw APIError.badRequest("Query parameter 'completed' must be 'true' or 'false'.")
            }
            completed = raw == "true"
        }
        let pagination = try Pagination.from(request)
        let matching = state.todos.withLock { store in
            store.todos.filter { todo in
                (userID.map { todo.userId == $0 } ?? true) && (completed.map { todo.completed == $0 } ?? true)
            }
        }
        guard let pagination else {
            return try JSONBody.response(matching)
        }
        var headers = HTTPFields()
        headers.set("X-Total-Count", String(matching.count))
        headers.set("Link", pagination.linkHeader(for: request, total: matching.count, fallbackAuthority: state.fallbackAuthority))
        return try JSONBody.response(Array(pagination.slice(matching)), headers: headers)
    }

    private func create(_ request: Request) async throws -> Response {
        let body = try await JSONBody.object(from: request)
        var errors: [APIError.FieldError] = []
        let userID = Self.validateUserID(Self.userID(in: body), required: true, into: &errors)
        let title = Self.validateTitle(body["title"], required: true, into: &errors)
        let completed = Self.validateCompleted(body["completed"], required: false, into: &errors)
        guard errors.isEmpty, let userID, let title else {
            throw APIError.validation("The todo is invalid.", errors)
        }
        guard let todo = state.todos.withLock({ $0.create(userId: userID, title: title, completed: completed ?? false) }) else {
            throw APIError(
                status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: "store_full",
                message: "The demo holds at most \(TodoStore.capacity) todos; delete some first.")
        }
        var headers = HTTPFields()
        headers[.location] = "/todos/\(todo.id)"
        return try JSONBody.response(todo, status: .created, headers: headers)
    }

    /// PUT: every field is required, as a full replacement should be.
    private func replace(_ request: Request, _ context: DemoRequestContext) async throws -> Response {
        let id = try todoID(context)
        guard state.todos.withLock({ $0.todo(id: id) }) != nil else { throw notFound(id) }
        let body = try await JSONBody.object(from: request)
        var errors: [APIError.FieldError] = []
        let userID = Self.validateUserID(Self.userID(in: body), required: true, into: &errors)
        let title = Self.validateTitle(body["title"], required: true, into: &errors)
        let completed = Self.validateCompleted(body["completed"], required: true, into: &errors)
        guard errors.isEmpty, let userID, let title, let completed else {
            throw APIError.validation("The todo is invalid.", errors)
        }
        let updated = state.todos.withLock { store in
            store.update(id: id) { todo in
                todo = Todo(userId: userID, id: id, title: title, completed: completed)
            }
        }
        guard let updated else { throw notFound(id) }
        return try JSONBody.response(updated)
    }

    /// PATCH: only the fields present change.
    private func patch(_ request: Request, _ context: DemoRequestContext) async throws -> Response {
        let id = try todoID(context)
        guard state.todos.withLock({ $0.todo(id: id) }) != nil else { throw notFound(id) }
        let body = try await JSONBody.object(from: request)
        var errors: [APIError.FieldError] = []
        let userID = Self.validateUserID(Self.userID(in: body), required: false, into: &errors)
        let title = Self.validateTitle(body["title"], required: false, into: &errors)
        let completed = Self.validateCompleted(body["completed"], required: false, into: &errors)
        guard errors.isEmpty else {
            throw APIError.validation("The todo is invalid.", errors)
        }
        let updated = state.todos.withLock { store in
            store.update(id: id) { todo in
                if let userID { todo.userId = userID }
                if let title { todo.title = title }
                if let completed { todo.completed = completed }
            }
        }
        guard let updated else { throw notFound(id) }
        return try JSONBody.response(updated)
    }

    /// The `{id}` of the path; not being an integer means no such todo, so 404 like jsonplaceholder.
    private func todoID(_ context: DemoRequestContext) throws -> Int {
        let raw = context.parameters.get("id") ?? ""
        guard let id = Int(raw) else {
            throw APIError.notFound("No todo with id '\(raw)'.")
        }
        return id
    }

    private func notFound(_ id: Int) -> APIError {
        APIError.notFound("No todo with id '\(id)'.")
    }

    // MARK: Validation (absent optional fields give nil without an error)

    /// The todo's user, as jsonplaceholder spells it (`userId`) or as a client with NetworkingKit's
    /// default snake_case encoder sends it (`user_id`): a todo written with the default client is
    /// then accepted as it is, rather than refused with "userId: is required".
    private static func userID(in body: [String: JSONValue]) -> JSONValue? {
        body["userId"] ?? body["user_id"]
    }

    private static func validateUserID(_ value: JSONValue?, required: Bool, into errors: inout [APIError.FieldError]) -> Int? {
        guard let value, value != .null else {
            if required { errors.append(.init(field: "userId", message: "is required")) }
            return nil
        }
        guard let userID = value.intValue, userID >= 1 else {
            errors.append(.init(field: "userId", message: "must be an integer of at least 1"))
            return nil
        }
        return userID
    }

    private static func validateTitle(_ value: JSONValue?, required: Bool, into errors: inout [APIError.FieldError]) -> String? {
        guard let value, value != .null else {
            if required { errors.append(.init(field: "title", message: "is required")) }
            return nil
        }
        guard let title = value.stringValue else {
            errors.append(.init(field: "title", message: "must be a string"))
            return nil
        }
        if title.isEmpty {
            errors.append(.init(field: "title", message: "must not be empty"))
            return nil
        }
        if title.count > 200 {
            errors.append(.init(field: "title", message: "must be at most 200 characters"))
            return nil
        }
        return title
    }

    private static func validateCompleted(_ value: JSONValue?, required: Bool, into errors: inout [APIError.FieldError]) -> Bool? {
        guard let value, value != .null else {
            if required { errors.append(.init(field: "completed", message: "is required")) }
            return nil
        }
        guard let completed = value.boolValue else {
            errors.append(.init(field: "completed", message: "must be true or false"))
            return nil
        }
        return completed
    }
}
#endif
