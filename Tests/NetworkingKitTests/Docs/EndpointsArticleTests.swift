// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the Endpoints DocC article, compiled: each sits between `article-sample`
// markers, exactly as in the article, and the test below fails when they differ. The last two
// samples declare extensions, which Swift allows at file scope only: they sit at file scope,
// indented like the others so that the comparison reads them the same way.

/// Stand-ins for the app's own types.
private struct Todo: Decodable, Sendable {
    let title: String
}

private struct NewTodo: Encodable, Sendable {
    let title: String
}

private struct Session: Decodable, Sendable {
    let accessToken: String
}

/// The first sample's `TodosEndpoint` at file scope, for the sample that extends it: the first
/// sample declares its own inside a function, where nothing can extend it.
private enum TodosEndpoint: APIEndpoint {
    case list(page: Int)
    case create(NewTodo)
    case delete(id: Int)

    var path: String {
        switch self {
        case .list, .create: "/todos"
        case .delete(let id): "/todos/\(id)"
        }
    }
}

private enum EndpointsArticleSamples {
    static func endpointsAsAnEnum(client: LiveAPIClient) async throws {
        // <article-sample>
        enum TodosEndpoint: APIEndpoint {
            case list(page: Int)
            case create(NewTodo)
            case delete(id: Int)

            var path: String {
                switch self {
                case .list, .create: "/todos"
                case .delete(let id): "/todos/\(id)"
                }
            }
            var method: HTTPMethod {
                switch self {
                case .list: .get
                case .create: .post
                case .delete: .delete
                }
            }
            var queryItems: [URLQueryItem]? {
                if case .list(let page) = self { return [URLQueryItem(name: "page", value: String(page))] }
                return nil
            }
            var body: (any Encodable)? {
                if case .create(let todo) = self { return todo }
                return nil
            }
        }

        let todos = try await client.request(TodosEndpoint.list(page: 1), as: [Todo].self)
        try await client.request(TodosEndpoint.delete(id: 3))     // an answer with nothing to decode
        // </article-sample>
        _ = todos
    }

    static func typedRequests(client: LiveAPIClient) async throws {
        // <article-sample>
        enum Films {
            static let list = Request<[PixarFilm]>(path: "/films")
            static func rate(_ id: String, _ rating: FilmRating) -> Request<RatingReceipt> {
                Request(path: "/films/\(PathSegment.escape(id))/rating", method: .post, body: .json(rating))
            }
        }

        let films = try await client.send(Films.list)
        let answer = try await client.response(Films.list)   // value, status, headers, duration
        // </article-sample>
        _ = (films, answer)
    }

    static func formBody(name: String, password: String) {
        // <article-sample>
        let login = Request<Session>(
            path: "/auth/login", method: .post,
            body: .form(["grant_type": "password", "username": name, "password": password]))
        // </article-sample>
        _ = login
    }

    /// The sample is a lone expression: it is the value of this property.
    static var escapedPath: String {
        // <article-sample>
        "/files/\(PathSegment.escape("reports/2024 Q1.pdf"))"   // /files/reports%2F2024%20Q1.pdf
        // </article-sample>
    }
}

        // <article-sample>
        extension TodosEndpoint {
            var options: RequestOptions {
                var options = RequestOptions(timeout: .seconds(10))
                if case .list = self { options.cachePolicy = .returnCacheDataElseLoad }
                return options
            }
        }
        // </article-sample>

        // <article-sample>
        enum PriorityKey: RequestOptionKey {
            static let defaultValue = 0
        }
        extension RequestOptions {
            var priority: Int {
                get { self[PriorityKey.self] }
                set { self[PriorityKey.self] = newValue }
            }
        }
        // </article-sample>

@Suite("Endpoints article samples")
struct EndpointsArticleTests {
    @Test("every Swift sample of Endpoints.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/Endpoints.md", testFile: #filePath, marker: "article-sample")
    }
}
