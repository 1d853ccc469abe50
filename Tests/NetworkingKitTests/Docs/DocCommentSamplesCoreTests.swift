// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift samples of NetworkingKit's doc comments, from Auth to Errors, compiled: each sits
// between `doc-sample` markers, exactly as in its doc comment, inside a function whose parameters
// supply what the sample assumes, and the test below fails when a sample and its copy differ. The
// sample that declares an extension sits at file scope, indented like the others so that the
// comparison reads it the same way.

/// Stand-ins for what the samples take from the app around them (more in SampleStandIns.swift).
private struct Film: Decodable, Sendable {
    let title: String
}

/// The secure storage that the custom token store sample keeps its token in.
private struct Vault: Sendable {
    func read(_ key: String) async throws -> AuthToken? { nil }
    func write(_ token: AuthToken, to key: String) async throws {}
    func delete(_ key: String) async throws {}
}

/// The endpoints and requests that `APIClient`'s sample sends.
private struct FilmPosterEndpoint: APIEndpoint {
    let id: String

    var path: String { "/films/\(PathSegment.escape(id))/poster" }
}

private enum Films {
    static let list = Request<[PixarFilm]>(path: "/films")

    static func detail(id: String) -> Request<PixarFilm> {
        Request(path: "/films/\(PathSegment.escape(id))")
    }

    static func poster(id: String) -> FilmPosterEndpoint {
        FilmPosterEndpoint(id: id)
    }
}

private typealias Todos = TodosAPI

/// The streamed endpoint of `LiveAPIClient.bytes(_:)`'s sample, and what reads its body.
private enum LogsEndpoint: APIEndpoint {
    case tail

    var path: String { "/logs/tail" }
}

private struct LogParser {
    private(set) var received = 0

    mutating func feed(_ chunk: Data) {
        received += chunk.count
    }
}

private func loadFilmsData() async throws -> Data {
    Data()
}

private func showMissingFilm() {}

private enum DocCommentCoreSamples {
    static func basicAuthenticationSample(apiURL: URL) throws {
        // <doc-sample>
        let basic = try BasicAuthentication(username: "woody", password: "andy")
        let client = LiveAPIClient(configuration: .init(baseURL: apiURL, middlewares: [basic]))
        // </doc-sample>
        _ = client
    }

    // MARK: Auth

    static func authManagerSample(apiURL: URL, tokenFile: URL, appState: SampleSignInScreen) async throws {
        // <doc-sample>
        let auth = AuthManager(
            client: LiveAPIClient(baseURL: apiURL),
            store: FileTokenStore(fileURL: tokenFile),
            onSignOut: { _ in await appState.showSignIn() }
        )
        let api = LiveAPIClient(configuration: .init(baseURL: apiURL, middlewares: [auth.middleware]))

        try await auth.login(username: "woody", password: "andy")
        let me = try await api.send(Request<Me>(path: "/me"))   // Bearer token, refreshed as needed
        try await auth.logout()
        // </doc-sample>
        _ = me
    }

    static func authTokenSample(refresher: TokenRefresher) async throws {
        // <doc-sample>
        let token = AuthToken(accessToken: "at_123", refreshToken: "rt_456", expiresAt: .now + 3600)
        try await refresher.setToken(token)
        // </doc-sample>
    }

    /// An endpoint that goes without the user's credential; the sample is its `options`.
    struct PublicEndpoint: APIEndpoint {
        var path: String { "/public" }

        // <doc-sample>
        var options: RequestOptions {
            var options = RequestOptions()
            options.requiresAuthentication = false
            return options
        }
        // </doc-sample>
    }

    static func authenticationMiddlewareSample(
        store: any TokenStore, authAPI: SampleAuthAPI, url: URL, logging: LoggingMiddleware,
        deduplication: RequestDeduplicator, cache: HTTPCache, retry: RetryMiddleware
    ) {
        // <doc-sample>
        let refresher = TokenRefresher(store: store) { token in try await authAPI.refresh(token) }
        let client = LiveAPIClient(configuration: .init(
            baseURL: url,
            middlewares: [logging, AuthenticationMiddleware(tokenProvider: refresher), deduplication, cache, retry]
        ))
        // </doc-sample>
        _ = client
    }

    static func fileTokenStoreSample() {
        // <doc-sample>
        let store = FileTokenStore(fileURL: URL(filePath: NSHomeDirectory()).appending(path: ".netkit/token.json"))
        // </doc-sample>
        _ = store
    }

    static func keychainTokenStoreSample(api: SampleAuthAPI) {
        // <doc-sample>
        let store = KeychainTokenStore(service: "com.example.app.auth")
        let refresher = TokenRefresher(store: store) { token in try await api.refresh(token) }
        // </doc-sample>
        _ = refresher
    }

    static func refreshWindowSample(authAPI: SampleAuthAPI) {
        // <doc-sample>
        let refresher = TokenRefresher(refreshWindow: RefreshWindow(maximumRefreshes: 3, interval: .seconds(60))) { token in
            try await authAPI.refresh(token)
        }
        // </doc-sample>
        _ = refresher
    }

    static func tokenProviderSample() {
        // <doc-sample>
        struct FixedTokenProvider: TokenProvider {
            let token: AuthToken
            func validToken() async throws -> AuthToken? { token }
        }
        // </doc-sample>
    }

    static func tokenRefresherSample(tokenFile: URL, session: SampleSignInScreen, authAPI: SampleAuthAPI, url: URL) {
        // <doc-sample>
        let refresher = TokenRefresher(store: FileTokenStore(fileURL: tokenFile), onSignOut: { _ in
            await session.showSignIn()
        }) { token in
            try await authAPI.refresh(token)      // exchanges token.refreshToken for a new AuthToken
        }
        let client = LiveAPIClient(baseURL: url, middlewares: [AuthenticationMiddleware(tokenProvider: refresher)])
        // </doc-sample>
        _ = client
    }

    static func tokenStoreSample() {
        // <doc-sample>
        struct VaultTokenStore: TokenStore {
            let vault: Vault
            func token() async throws -> AuthToken? { try await vault.read("token") }
            func setToken(_ token: AuthToken) async throws { try await vault.write(token, to: "token") }
            func removeToken() async throws { try await vault.delete("token") }
        }
        // </doc-sample>
    }

    // MARK: Cache

    static func cachePolicySample() {
        // <doc-sample>
        var options = RequestOptions()
        options.cachePolicy = .returnCacheDataElseLoad
        // </doc-sample>
        _ = options
    }

    static func cacheStatusSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let response = try await client.response(PixarAPIEndpoint.films, as: [Film].self)
        if response.cacheStatus == .hit { print("no request was sent") }
        // </doc-sample>
    }

    static func requestTimingSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let response = try await client.response(PixarAPIEndpoint.films, as: [Film].self)
        if let firstByte = response.timing?.firstByte, firstByte > .milliseconds(500) {
            print("slow server: first byte after \(firstByte); connection reused: \(response.timing?.reusedConnection ?? false)")
        }
        // </doc-sample>
    }

    static func diskCacheStorageSample() {
        // <doc-sample>
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "com.example.app/http")
        let storage = DiskCacheStorage(directory: caches, maxBytes: 50 * 1024 * 1024)
        // </doc-sample>
        _ = storage
    }

    static func httpCacheSample(url: URL, auth: AuthenticationMiddleware, retry: RetryMiddleware) {
        // <doc-sample>
        let cache = HTTPCache(storage: MemoryCacheStorage())
        let client = LiveAPIClient(configuration: .init(baseURL: url, middlewares: [auth, cache, retry]))
        // </doc-sample>
        _ = client
    }

    static func memoryCacheStorageSample() {
        // <doc-sample>
        let storage = MemoryCacheStorage(maxBytes: 8 * 1024 * 1024, maxEntries: 500)
        // </doc-sample>
        _ = storage
    }

    static func tieredCacheStorageSample() {
        // <doc-sample>
        let storage = TieredCacheStorage(
            memory: MemoryCacheStorage(),
            disk: DiskCacheStorage(directory: FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "http")))
        // </doc-sample>
        _ = storage
    }

    // MARK: Client

    static func apiClientSample(client: any APIClient, posterURL: URL) async throws {
        // <doc-sample>
        let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        let film = try await client.send(Films.detail(id: "1"))
        try await client.send(Todos.delete(id: 3))            // Request<Void>
        let answer = try await client.response(Films.list)      // value + status, headers, timing
        let poster = try await client.download(Films.poster(id: "1"), to: posterURL)
        // </doc-sample>
        _ = (films, film, answer, poster)
    }

    static func liveAPIClientSample() {
        // <doc-sample>
        let client = LiveAPIClient(
            baseURL: URL(string: "https://api.example.com/v1")!,
            middlewares: [
                RequestInterceptorMiddleware { request in
                    var request = request
                    request.setValue("demo", forHTTPHeaderField: "X-API-Key")
                    return request
                }
            ]
        )
        // </doc-sample>
        _ = client
    }

    static func bytesSample(client: LiveAPIClient, parser: inout LogParser) async throws {
        // <doc-sample>
        let answer = try await client.bytes(LogsEndpoint.tail)
        for try await chunk in answer.body {
            parser.feed(chunk)
        }
        // </doc-sample>
    }

    static func streamedResponseSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        let answer = try await client.bytes(Request<Data>(path: "/ndjson"))
        var size = 0
        for try await chunk in answer.body {
            size += chunk.count
        }
        // </doc-sample>
        _ = size
    }

    // MARK: Deduplication

    static func allowsDeduplicationSample() {
        // <doc-sample>
        var options = RequestOptions()
        options.allowsDeduplication = false
        // </doc-sample>
        _ = options
    }

    static func requestDeduplicatorSample(url: URL, authentication: AuthenticationMiddleware) {
        // <doc-sample>
        let client = LiveAPIClient(configuration: .init(
            baseURL: url,
            middlewares: [authentication, RequestDeduplicator(), RetryMiddleware()]
        ))
        // </doc-sample>
        _ = client
    }

    static func deduplicateSample(deduplicator: RequestDeduplicator) async throws {
        // <doc-sample>
        let data = try await deduplicator.deduplicate(key: "films") {
            try await loadFilmsData()
        }
        // </doc-sample>
        _ = data
    }

    // MARK: Endpoint

    static func apiEndpointSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        enum PixarAPIEndpoint: APIEndpoint {
            case films
            case filmDetail(id: String)
            case rateFilm(id: String, rating: FilmRating)

            var path: String {
                switch self {
                case .films: "/films"
                case .filmDetail(let id): "/films/\(PathSegment.escape(id))"
                case .rateFilm(let id, _): "/films/\(PathSegment.escape(id))/rating"
                }
            }
            var method: HTTPMethod {
                if case .rateFilm = self { return .post }
                return .get
            }
            var body: (any Encodable)? {
                if case .rateFilm(_, let rating) = self { return rating }
                return nil
            }
        }

        let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        // </doc-sample>
        _ = films
    }

    /// The sample is a lone expression: it is the value of this property.
    static var escapedPathSample: String {
        // <doc-sample>
        "/files/\(PathSegment.escape("reports/2024 Q1.pdf"))"   // /files/reports%2F2024%20Q1.pdf
        // </doc-sample>
    }

    static func requestSample(client: LiveAPIClient) async throws {
        // <doc-sample>
        enum Films {
            static let list = Request<[PixarFilm]>(path: "/films")
            static func rate(_ id: String, _ rating: FilmRating) -> Request<RatingReceipt> {
                Request(path: "/films/\(PathSegment.escape(id))/rating", method: .post, body: .json(rating))
            }
        }
        let films = try await client.send(Films.list)
        // </doc-sample>
        _ = films
    }

    static func acceptableContentTypesSample() {
        // <doc-sample>
        var options = RequestOptions()
        options.acceptableContentTypes = ["application/json", "text/json"]   // an old server
        // </doc-sample>
        _ = options
    }

    static func urlQueryEncoderSample() throws {
        // <doc-sample>
        struct FilmFilter: Encodable, Sendable {
            var director: String?
            var years: [Int]
            var includeShorts: Bool
        }
        let filter = FilmFilter(director: "Pete Docter", years: [2009, 2015], includeShorts: false)
        let films = Request<[PixarFilm]>(path: "/films", query: try URLQueryEncoder().encode(filter))
        // /films?director=Pete%20Docter&include_shorts=false&years=2009&years=2015
        // </doc-sample>
        _ = films
    }
}

        // <doc-sample>
        enum SkipAuthenticationKey: RequestOptionKey {
            static let defaultValue = false
        }
        extension RequestOptions {
            var skipsAuthentication: Bool {
                get { self[SkipAuthenticationKey.self] }
                set { self[SkipAuthenticationKey.self] = newValue }
            }
        }
        // </doc-sample>

extension DocCommentCoreSamples {
    // MARK: Errors

    /// `film` and `alertMessage` stand for a view model's state.
    static func networkErrorSample(client: LiveAPIClient, id: String, film: inout PixarFilm?, alertMessage: inout String)
        async throws
    {
        // <doc-sample>
        do {
            film = try await client.request(PixarAPIEndpoint.filmDetail(id: id), as: PixarFilm.self)
        } catch NetworkError.notFound {
            showMissingFilm()
        } catch let error as NetworkError {
            alertMessage = error.localizedDescription   // written for a person to read
        }
        // </doc-sample>
    }

    static func networkErrorSwitchSample(_ error: NetworkError) -> String {
        // <doc-sample>
        func message(for error: NetworkError) -> String {
            switch error {
            case .notFound: "This film is no longer available."
            case .unauthorized, .invalidCredentials: "Please sign in again."
            case .timeout, .transport: "Check your connection and try again."
            default: error.localizedDescription
            }
        }
        // </doc-sample>
        return message(for: error)
    }

    static func networkErrorEqualitySample(client: LiveAPIClient) async {
        // <doc-sample>
        await #expect(throws: NetworkError.httpError(statusCode: 404)) {
            try await client.send(Request<Film>(path: "/films/nope"))
        }
        // </doc-sample>
    }
}

@Suite("Doc-comment samples: NetworkingKit, Auth to Errors")
struct DocCommentSamplesCoreTests {
    @Test("every Swift sample in these doc comments is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSameDocSamples(
            sources: [
                "Sources/NetworkingKit/Auth/BasicAuthentication.swift",
                "Sources/NetworkingKit/Auth/AuthManager.swift",
                "Sources/NetworkingKit/Auth/AuthToken.swift",
                "Sources/NetworkingKit/Auth/AuthenticationMiddleware.swift",
                "Sources/NetworkingKit/Auth/FileTokenStore.swift",
                "Sources/NetworkingKit/Auth/KeychainTokenStore.swift",
                "Sources/NetworkingKit/Auth/RefreshWindow.swift",
                "Sources/NetworkingKit/Auth/TokenProvider.swift",
                "Sources/NetworkingKit/Auth/TokenRefresher.swift",
                "Sources/NetworkingKit/Auth/TokenStore.swift",
                "Sources/NetworkingKit/Cache/CachePolicy.swift",
                "Sources/NetworkingKit/Core/CacheStatus.swift",
                "Sources/NetworkingKit/Core/RequestTiming.swift",
                "Sources/NetworkingKit/Cache/DiskCacheStorage.swift",
                "Sources/NetworkingKit/Cache/HTTPCache.swift",
                "Sources/NetworkingKit/Cache/MemoryCacheStorage.swift",
                "Sources/NetworkingKit/Cache/TieredCacheStorage.swift",
                "Sources/NetworkingKit/Client/APIClient.swift",
                "Sources/NetworkingKit/Client/LiveAPIClient.swift",
                "Sources/NetworkingKit/Client/StreamedResponse.swift",
                "Sources/NetworkingKit/Deduplication/DeduplicationOptions.swift",
                "Sources/NetworkingKit/Deduplication/RequestDeduplicator.swift",
                "Sources/NetworkingKit/Endpoint/APIEndpoint.swift",
                "Sources/NetworkingKit/Endpoint/PathSegment.swift",
                "Sources/NetworkingKit/Endpoint/Request.swift",
                "Sources/NetworkingKit/Endpoint/RequestOptions+Coders.swift",
                "Sources/NetworkingKit/Endpoint/URLQueryEncoder.swift",
                "Sources/NetworkingKit/Core/RequestOptions.swift",
                "Sources/NetworkingKit/Core/Errors/NetworkError.swift",
                "Sources/NetworkingKit/Core/Errors/NetworkError+Equatable.swift",
            ],
            testFile: #filePath)
    }
}
