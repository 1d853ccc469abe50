#if DemoAPI
import ArgumentParser
import Foundation

/// What each benchmark request asks for: one todo (a small answer, 70 bytes) or every todo (a
/// medium one: DemoAPI's 200, about 14 KB).
enum BenchAnswer: String, CaseIterable, ExpressibleByArgument, Sendable {
    case small
    case medium

    /// The path and query of request number `index`. Never the same twice in a row (the small
    /// answers cycle through 200 todos, the medium ones carry the index in a query the server
    /// ignores), so that requests in flight at once are not shared by de-duplication.
    func target(_ index: Int) -> (path: String, query: [URLQueryItem]) {
        switch self {
        case .small: ("/todos/\(index % 200 + 1)", [])
        case .medium: ("/todos", [URLQueryItem(name: "n", value: String(index))])
        }
    }

    /// The request of number `index` relative to `base`, written out for the raw libraries.
    func url(base: String, _ index: Int) throws -> URL {
        let (path, query) = target(index)
        let text = base + path + (query.isEmpty ? "" : "?" + query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&"))
        guard let url = URL(string: text) else { throw BenchFailure.url(text) }
        return url
    }

    /// The requests, as the report's first line names them.
    var summary: String {
        switch self {
        case .small: "GET /todos/{id}"
        case .medium: "GET /todos (200 todos, about 14 KB)"
        }
    }
}
#endif
