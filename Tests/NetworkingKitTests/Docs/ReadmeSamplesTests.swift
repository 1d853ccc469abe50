// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The README's Swift samples, compiled: each sits between `readme-sample` markers, exactly as in
// the README (imports aside), inside a function that provides what the sample assumes. The test
// below fails when a README sample and its copy here differ, so a sample can never go stale
// without the build noticing (kean/Get's CodeSamplesTests does the same).

/// Stand-ins for what the samples take from the app around them.
private func showAlert(_ message: String) {}
private func show(_ films: [PixarFilm], _ results: SearchResults) {}

private actor Session {
    func showSignIn() {}
}

/// A seed-style interceptor, as an app would write it (seed 000).
private struct AuthInterceptor: RequestInterceptor {
    let tokenStore: InMemoryTokenStore

    func intercept(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        if let token = await tokenStore.token() {
            request.setValue(token.authorizationValue, forHTTPHeaderField: "Authorization")
        }
        return request
    }
}

private enum ReadmeSamples {
    static func quickStart() async throws {
        // <readme-sample>

        // 1. Define the endpoints once.
        enum PixarAPIEndpoint: APIEndpoint {
            case films
            case filmDetail(id: String)
            case search(query: String)
            case rateFilm(id: String, rating: FilmRating)

            var path: String {
                switch self {
                case .films: "/films"
                case .filmDetail(let id): "/films/\(PathSegment.escape(id))"
                case .search: "/search"
                case .rateFilm(let id, _): "/films/\(PathSegment.escape(id))/rating"
                }
            }
            var method: HTTPMethod {
                if case .rateFilm = self { return .post }
                return .get
            }
            var queryItems: [URLQueryItem]? {
                if case .search(let query) = self { return [URLQueryItem(name: "q", value: query)] }
                return nil
            }
            var body: (any Encodable)? {
                if case .rateFilm(_, let rating) = self { return rating }
                return nil
            }
        }

        // 2. Make one client (snake_case JSON and ISO 8601 dates by default).
        let client = LiveAPIClient(baseURL: URL(string: "https://api.pixar.example/v1")!)

        // 3. Call it from services and view models, which depend only on `any APIClient`.
        do {
            let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
            let results = try await client.request(PixarAPIEndpoint.search(query: "toy"), as: SearchResults.self)
            show(films, results)
        } catch let error as NetworkError {
            showAlert(error.localizedDescription)   // "The requested item could not be found."
        }
        // </readme-sample>
    }

    static func coders() {
        // <readme-sample>
        var configuration = LiveAPIClient.Configuration(baseURL: URL(string: "https://jsonplaceholder.example")!)
        configuration.encoder = JSONEncoder()
        configuration.decoder = FastJSONDecoder()
        let todos = LiveAPIClient(configuration: configuration)

        var request = Request<TodoDTO>(path: "/todos/1")
        request.options.decoder = FastJSONDecoder()  // this request only, on any client
        // </readme-sample>
        _ = (todos, request)
    }

    static func fastDecoder(data: Data) throws {
        // <readme-sample>
        var decoder = FastJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601WithOptionalFractionalSeconds
        let films = try decoder.decode([PixarFilm].self, from: data)
        // </readme-sample>
        _ = films
    }

    static func typedRequests(client: LiveAPIClient) async throws {
        // <readme-sample>
        enum Films {
            static let list = Request<[PixarFilm]>(path: "/films")
            static func detail(id: String) -> Request<PixarFilm> { Request(path: "/films/\(PathSegment.escape(id))") }
        }
        let films = try await client.send(Films.list)
        let answer = try await client.response(Films.list)   // value + status, headers, duration
        print(films.count, answer.response.status, answer.duration)
        // </readme-sample>
    }

    static func configuration(tokens: InMemoryTokenStore) {
        // <readme-sample>
        let client = LiveAPIClient(
            configuration: .init(
                baseURL: URL(string: "https://api.pixar.example/v1")!,
                middlewares: [AuthInterceptor(tokenStore: tokens).middleware],   // a seed-style interceptor
                defaultHeaders: ["User-Agent": "PixarApp/1.0"],
                timeout: .seconds(30),
                maxResponseBodySize: 8 * 1024 * 1024
            ))
        // </readme-sample>
        _ = client
    }

    static func resilience(apiURL: URL, tokenFile: URL, session: Session) async throws {
        // <readme-sample>
        let auth = AuthManager(
            client: LiveAPIClient(baseURL: apiURL),              // its own client for /auth/login and /auth/refresh
            store: FileTokenStore(fileURL: tokenFile),            // owner-only file; KeychainTokenStore on Apple platforms
            onSignOut: { _ in await session.showSignIn() }        // the refresh token was refused
        )
        let client = LiveAPIClient(
            configuration: .init(
                baseURL: apiURL,
                middlewares: [
                    auth.middleware,                              // Bearer token; one refresh for all concurrent 401s
                    RequestDeduplicator(),                        // identical GETs in flight share one call
                    RetryMiddleware(policy: .default),            // 3 attempts, 0.5 s then 1 s, full jitter, budgeted
                ],
                timeout: .seconds(30),                            // each attempt
                callTimeout: .seconds(90)                         // the whole call, retries and refresh included
            ))
        try await auth.login(username: "woody", password: "andy")

        // At a call site instead of in the chain, as in the seeds:
        let films = try await withRetry(policy: .aggressive) {
            try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        }
        print(films.count)
        // </readme-sample>
    }

    static func caching(client: LiveAPIClient, cachesDirectory: URL, filmsURL: URL) async throws {
        // <readme-sample>
        let cache = HTTPCache(storage: TieredCacheStorage(
            front: MemoryCacheStorage(),                                  // 16 MiB, LRU
            back: DiskCacheStorage(directory: cachesDirectory)            // 100 MiB, LRU, survives restarts
        ))
        // middlewares: [LoggingMiddleware(), auth.middleware, RequestDeduplicator(), cache, RetryMiddleware()]
        let answer = try await client.response(PixarAPIEndpoint.films, as: [PixarFilm].self)
        print(answer.cacheStatus == .hit)   // .hit, .miss, .revalidated or .stale
        await cache.purge(url: filmsURL)
        // </readme-sample>
    }
}

/// The endpoints the transfers sample uses.
private enum UploadsAPI: APIEndpoint {
    case create
    case file(id: Int)
    case export

    var path: String {
        switch self {
        case .create: "/uploads"
        case .file(let id): "/uploads/\(id)"
        case .export: "/exports/latest"
        }
    }
    var method: HTTPMethod {
        if case .create = self { return .post }
        return .get
    }
}

private struct UploadReceipt: Decodable, Sendable {
    let id: Int
}

private func consume(_ chunk: Data) {}

extension ReadmeSamples {
    static func transfers(client: LiveAPIClient, posterURL: URL, destination: URL) async throws {
        // <readme-sample>
        // A multipart form: files are read from disk in chunks, and again for a retry or a 307.
        var form = MultipartFormData()
        form.append("Luxo Jr.", name: "title")
        try form.append(fileAt: posterURL, name: "poster")            // image/png, from the extension
        let receipt = try await client.upload(.multipart(form), to: UploadsAPI.create, as: UploadReceipt.self) { progress in
            print(progress)                                          // 1048576 of 4194304 bytes (25%)
        }

        // A download to disk: a hidden temporary file, moved into place only when complete. With
        // `resumable`, a broken download keeps its bytes and the next call asks for the rest.
        let file = try await client.download(UploadsAPI.file(id: receipt.value.id), to: destination, resumable: true)
        print(file.size, file.resumedFrom)

        // A streamed answer: the head at once, the body as it arrives, no size limit unless asked.
        let answer = try await client.bytes(UploadsAPI.export)
        for try await chunk in answer.body {
            consume(chunk)
        }
        // </readme-sample>
    }
}

extension ReadmeSamples {
    static func streamsAndPages(client: LiveAPIClient) async throws {
        // <readme-sample>
        // Server-Sent Events: after a drop, it reconnects with Last-Event-ID; cancel the task to stop.
        for try await event in client.events(Request<Data>(path: "/feed")) {
            print(event.id, event.event, event.data)
        }

        // JSON lines, each decoded as it arrives; a bad line names its line number.
        for try await todo in client.lines(Request<Data>(path: "/todos/export"), as: TodoDTO.self) {
            print(todo.title)
        }

        // Pages linked by `Link: <...>; rel="next"`, flattened into their items.
        for try await todo in client.pages(following: Request<[TodoDTO]>(path: "/todos")).items {
            print(todo.title)
        }
        // </readme-sample>
    }
}

@Suite("README samples")
struct ReadmeSamplesTests {
    @Test("every Swift sample in the README is compiled here, unchanged")
    func samplesMatch() throws {
        // The server sample comes first (Installation) and lives in a file that imports Hummingbird.
        let serverSample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ReadmeServerSampleTests.swift").path
        try CompiledSamples.expectSame(
            document: "README.md", droppingImports: true, leavingOutManifests: true, testFiles: [serverSample, #filePath],
            marker: "readme-sample")
    }
}
