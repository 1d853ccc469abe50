import DemoAPI
import ExampleServices
import Foundation
import NetworkingKit
import Testing

/// The HTTP cache against DemoAPI's films routes, counted by the server's stats: a fresh hit
/// sends nothing, a revalidation sends exactly one conditional request.
@Suite("HTTP cache against DemoAPI", .timeLimit(.minutes(3)))
struct CacheIntegrationTests {
    static func client(_ server: DemoServer, _ kind: TransportKind, cache: HTTPCache) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(baseURL: server.baseURL, transport: kind.transport, middlewares: [cache]))
    }

    @Test("a fresh hit makes no request", arguments: TransportKind.allCases)
    func freshHit(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind, cache: HTTPCache(storage: MemoryCacheStorage()))
            let first = try await client.response(PixarAPIEndpoint.filmDetail(id: "up"), as: PixarFilm.self)
            let second = try await client.response(PixarAPIEndpoint.filmDetail(id: "up"), as: PixarFilm.self)
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus == .hit)
            #expect(second.value == first.value)
            #expect(server.stats.count("GET /films/{id}") == 1)
        }
    }

    @Test("a stale entry is revalidated with exactly one conditional request, answered 304", arguments: TransportKind.allCases)
    func revalidation(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind, cache: HTTPCache(storage: MemoryCacheStorage()))
            // max_age=0: stored, but stale at once.
            let request = Request<PixarFilm>(path: "/films/coco", query: [URLQueryItem(name: "max_age", value: "0")])
            let first = try await client.response(request)
            let second = try await client.response(request)
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus == .revalidated)
            #expect(second.value == first.value)
            #expect(server.stats.count("GET /films/{id}") == 2)
            #expect(server.stats.conditionalCount("GET /films/{id}") == 1)
            #expect(server.stats.snapshot.notModified == 1)
        }
    }

    @Test("a disk cache answers a new client instance without a request", arguments: TransportKind.allCases)
    func diskSurvivesInstances(kind: TransportKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withDemoServer { server in
            let first = Self.client(server, kind, cache: HTTPCache(storage: DiskCacheStorage(directory: directory)))
            let films = try await first.request(PixarAPIEndpoint.films, as: [PixarFilm].self)

            let second = Self.client(server, kind, cache: HTTPCache(storage: DiskCacheStorage(directory: directory)))
            let again = try await second.response(PixarAPIEndpoint.films, as: [PixarFilm].self)
            #expect(again.value == films)
            #expect(again.cacheStatus == .hit)
            #expect(server.stats.count("GET /films") == 1)
        }
    }

    @Test("a purge forgets the film: the next request goes to the server", arguments: TransportKind.allCases)
    func purge(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let cache = HTTPCache(storage: MemoryCacheStorage())
            let client = Self.client(server, kind, cache: cache)
            _ = try await client.request(PixarAPIEndpoint.filmDetail(id: "up"), as: PixarFilm.self)
            await cache.purge(url: server.baseURL.appendingPathComponent("films/up"))
            let after = try await client.response(PixarAPIEndpoint.filmDetail(id: "up"), as: PixarFilm.self)
            #expect(after.cacheStatus == .miss)
            #expect(server.stats.count("GET /films/{id}") == 2)
        }
    }

    @Test("a redirect's target is not stored under the redirecting URL", arguments: TransportKind.allCases)
    func redirectNotStored(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = Self.client(server, kind, cache: HTTPCache(storage: MemoryCacheStorage()))
            let request = Request<PixarFilm>(path: "/redirect/302", query: [URLQueryItem(name: "to", value: "/films/up")])
            let first = try await client.response(request)
            let second = try await client.response(request)
            #expect(first.value.id == "up")
            #expect(second.cacheStatus == .miss)
            #expect(server.stats.count("GET /redirect/{code}") == 2)
        }
    }
}
