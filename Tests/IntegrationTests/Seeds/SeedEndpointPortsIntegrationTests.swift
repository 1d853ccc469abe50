import DemoAPI
import Foundation
import NetworkingKit
import Testing

// Seeds 000, 002 and 003's endpoint types, ported as the articles wrote them: each keeps its own
// method enum (which shadows NetworkingKit's `HTTPMethod` inside its namespace) and seed 003 its
// `var body: Data?`. The only changes: each conforms to NetworkingKit's `APIEndpoint`, its
// `baseURL` (a host on the internet) is left out so the client's (DemoAPI's) is used, and seed
// 003's spec gets `path` from its `endpoint` (and writes `any` before its existential type, as
// Swift 6's ExistentialAny asks).

/// Seed 000.
enum Seed000 {
    enum HTTPMethod: String {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    struct FilmRating: Encodable, Sendable {
        let rating: Int
    }

    enum PixarAPIEndpoint: APIEndpoint {
        case films
        case filmDetail(id: String)
        case characters(filmID: String)
        case rateFilm(id: String, rating: FilmRating)
        var path: String {
            switch self {
            case .films:
                return "/films"
            case .filmDetail(let id):
                return "/films/\(id)"
            case .characters(let filmID):
                return "/films/\(filmID)/characters"
            case .rateFilm(let id, _):
                return "/films/\(id)/rating"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .films, .filmDetail, .characters:
                return .get
            case .rateFilm:
                return .post
            }
        }
        var body: (any Encodable)? {
            switch self {
            case .rateFilm(_, let rating):
                return rating
            default:
                return nil
            }
        }
    }
}

/// Seed 002.
enum Seed002 {
    public enum HTTPMethod: String {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    public enum PixarAPIEndpoint: APIEndpoint {
        case films
        case filmDetail(id: String)
        case characters(filmID: String)
        case search(query: String)
        public var path: String {
            switch self {
            case .films: return "/films"
            case .filmDetail(let id): return "/films/\(id)"
            case .characters(let filmID): return "/films/\(filmID)/characters"
            case .search: return "/search"
            }
        }
        public var method: HTTPMethod {
            switch self {
            case .films, .filmDetail, .characters, .search: return .get
            }
        }
        public var queryItems: [URLQueryItem]? {
            switch self {
            case .search(let query):
                return [URLQueryItem(name: "q", value: query)]
            default:
                return nil
            }
        }
    }
}

/// Seed 003.
enum Seed003 {
    struct APIClient {
        enum HttpMethod: String, CaseIterable {
            case get = "GET"
            case post = "POST"
            case patch = "PATCH"
            case put = "PUT"
            case delete = "DELETE"
            case head = "HEAD"
            case options = "OPTIONS"
        }
    }

    protocol DecodableType: Decodable {}

    struct TodoDTO: Sendable, Equatable, Codable, DecodableType {
        var id: Int?
        var userId: Int
        var title: String
        var completed: Bool

        init(id: Int? = nil, userId: Int, title: String, completed: Bool = false) {
            self.id = id
            self.userId = userId
            self.title = title
            self.completed = completed
        }
    }

    enum TodosAPISpec: APIEndpoint {
        case getTodos
        case getTodo(id: Int)
        case create(todo: TodoDTO)

        var endpoint: String {
            switch self {
            case .getTodos:
                return "/todos"
            case .getTodo(id: let id):
                return "/todos/\(id)"
            case .create(_):
                return "/todos"
            }
        }

        var method: APIClient.HttpMethod {
            switch self {
            case .getTodos:
                return .get
            case .getTodo(id: _):
                return .get
            case .create(_):
                return .post
            }
        }

        var returnType: any DecodableType.Type {
            switch self {
            case .getTodos:
                return [TodoDTO].self
            case .getTodo:
                return TodoDTO.self
            case .create(_):
                return TodoDTO.self
            }
        }

        var body: Data? {
            switch self {
            case .getTodos:
                return nil
            case .getTodo(_):
                return nil
            case .create(let todo):
                return try? JSONEncoder().encode(todo)
            }
        }

        var path: String { endpoint }
    }
}

extension Array: Seed003.DecodableType where Element: Seed003.DecodableType {}

/// The right method and body reach DemoAPI, over both transports.
@Suite("Seed endpoint ports against DemoAPI", .timeLimit(.minutes(3)))
struct SeedEndpointPortsIntegrationTests {
    struct Film: Decodable, Sendable {
        let id: String
        let title: String
    }

    struct RatingResult: Decodable, Sendable {
        let rating: Int
        let ratingsCount: Int
    }

    struct SearchResults: Decodable, Sendable {
        let films: [Film]
    }

    /// DemoAPI's JSON is snake_case.
    private static func client(_ server: DemoServer, _ kind: TransportKind) -> LiveAPIClient {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return LiveAPIClient(
            configuration: .init(baseURL: server.baseURL, transport: kind.transport, decoder: decoder, timeout: .seconds(120)))
    }

    @Test("seed 000: rateFilm goes out as a POST with its JSON body, the others as GETs", arguments: TransportKind.allCases)
    func seed000(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let films = try await client.request(Seed000.PixarAPIEndpoint.films, as: [Film].self)
            #expect(films.count == 8)
            let up = try await client.request(Seed000.PixarAPIEndpoint.filmDetail(id: "up"), as: Film.self)
            #expect(up.title == "Up")
            let rated = try await client.request(
                Seed000.PixarAPIEndpoint.rateFilm(id: "up", rating: Seed000.FilmRating(rating: 5)), as: RatingResult.self)
            #expect(rated.rating == 5 && rated.ratingsCount == 1)
            #expect(server.stats.count("POST /films/{id}/rating") == 1)
        }
    }

    @Test("seed 002: every case goes out as a GET, search with its query", arguments: TransportKind.allCases)
    func seed002(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let found = try await client.request(Seed002.PixarAPIEndpoint.search(query: "TOY"), as: SearchResults.self)
            #expect(found.films.map(\.id) == ["toy-story"])
            let detail = try await client.request(Seed002.PixarAPIEndpoint.filmDetail(id: "coco"), as: Film.self)
            #expect(detail.title == "Coco")
        }
    }

    @Test("seed 003: create goes out as a POST with the Data body the endpoint encoded", arguments: TransportKind.allCases)
    func seed003(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind)
            let todo = Seed003.TodoDTO(userId: 1, title: "Port seed 003")
            let created = try await client.request(Seed003.TodosAPISpec.create(todo: todo), as: Seed003.TodoDTO.self)
            #expect(created.id != nil && created.title == "Port seed 003" && created.userId == 1)
            let fetched = try await client.request(Seed003.TodosAPISpec.getTodo(id: created.id ?? 0), as: Seed003.TodoDTO.self)
            #expect(fetched == created)
        }
    }
}
