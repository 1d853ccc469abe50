#if DemoAPI
import Hummingbird

/// The todos in pages by the two schemes `/todos`' `Link` header does not cover:
///
/// - `/pages/todos?page=P&limit=L`: the page in the body, `{"data": [...], "page": P,
///   "totalPages": T, "totalCount": N}` (the seeds' `PaginatedResponse`);
/// - `/cursor/todos?cursor=C&limit=L`: `{"items": [...], "nextCursor": "..."}`, the cursor opaque
///   and absent on the last page; an unknown cursor is a 400.
@available(macOS 14, iOS 17, tvOS 17, *)
struct TodoPageRoutes: Sendable {
    let state: DemoState

    private struct NumberedPage: Encodable {
        var data: [Todo]
        var page: Int
        var totalPages: Int
        var totalCount: Int
    }

    private struct CursorPage: Encodable {
        var items: [Todo]
        var nextCursor: String?
    }

    func register(on router: Router<DemoRequestContext>) {
        router.get("/pages/todos") { request, _ in
            let limit = try request.queryInt("limit", in: 1...Pagination.maxLimit) ?? Pagination.defaultLimit
            let page = try request.queryInt("page", in: 1...Int(Int32.max)) ?? 1
            let todos = state.todos.withLock { $0.todos }
            let pagination = Pagination(page: page, limit: limit)
            return try JSONBody.response(
                NumberedPage(
                    data: Array(pagination.slice(todos)), page: page, totalPages: pagination.lastPage(total: todos.count),
                    totalCount: todos.count))
        }
        router.get("/cursor/todos") { request, _ in
            let limit = try request.queryInt("limit", in: 1...Pagination.maxLimit) ?? Pagination.defaultLimit
            var start = 0
            if let cursor = request.query("cursor") {
                guard cursor.hasPrefix("after-"), let index = Int(cursor.dropFirst(6)), index >= 0 else {
                    throw APIError.badRequest("Unknown cursor '\(cursor)'.")
                }
                start = index
            }
            let todos = state.todos.withLock { $0.todos }
            let end = min(todos.count, start + limit)
            let items = start < todos.count ? Array(todos[start..<end]) : []
            return try JSONBody.response(CursorPage(items: items, nextCursor: end < todos.count ? "after-\(end)" : nil))
        }
    }
}
#endif
