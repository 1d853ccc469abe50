import ExampleServices
import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client over a real `URLSession` whose requests `MockURLProtocol` answers. Each test uses
/// its own host, so that tests running in parallel never see each other's handler.
private func client(host: String) -> LiveAPIClient {
    let transport = URLSessionTransport(configuration: MockURLProtocol.configuration())
    return LiveAPIClient(baseURL: URL(string: "https://\(host)")!, transport: transport)
}

private let up = PixarFilm(
    id: "up", title: "Up", releaseYear: 2009, releaseDate: Date(timeIntervalSince1970: 1_243_555_200),
    studio: "Pixar", synopsis: "Balloons.")

@Suite("MockURLProtocol")
struct MockURLProtocolTests {
    @Test("a GET is answered by the handler of its host")
    func get() async throws {
        let host = "get.mock-url-protocol.test"
        MockURLProtocol.register(host: host) { request in
            guard request.httpMethod == "GET", request.url?.path == "/films/up" else {
                return try MockURLProtocol.response(status: 404, for: request)
            }
            return try MockURLProtocol.json(up, for: request)
        }
        defer { MockURLProtocol.unregister(host: host) }

        let film = try await FilmsService(client: client(host: host)).film(id: "up")

        #expect(film == up)
    }

    @Test("a POST's body reaches the handler")
    func postBody() async throws {
        let host = "post.mock-url-protocol.test"
        let seen = LockedState<FilmRating?>(nil)
        MockURLProtocol.register(host: host) { request in
            let rating = try LiveAPIClient.Configuration.defaultDecoder()
                .decode(FilmRating.self, from: request.httpBody ?? Data())
            seen.withLock { $0 = rating }
            return try MockURLProtocol.json(
                RatingReceipt(filmId: "up", rating: rating.rating, averageRating: 5, ratingsCount: 1),
                status: 201, for: request)
        }
        defer { MockURLProtocol.unregister(host: host) }

        let receipt = try await FilmsService(client: client(host: host)).rate(filmID: "up", rating: 5, comment: "Wow")

        #expect(receipt.ratingsCount == 1)
        #expect(seen.withLock { $0 } == FilmRating(rating: 5, comment: "Wow"))
    }

    @Test("an error status becomes the matching NetworkError")
    func errorStatus() async throws {
        let host = "status.mock-url-protocol.test"
        MockURLProtocol.register(host: host) { request in
            try MockURLProtocol.response(
                status: 404, data: Data(#"{"message":"no such film"}"#.utf8),
                headers: ["Content-Type": "application/json"], for: request)
        }
        defer { MockURLProtocol.unregister(host: host) }

        let error = await networkError { _ = try await FilmsService(client: client(host: host)).film(id: "cars") }

        guard case .notFound(let failure) = error else {
            Issue.record("expected .notFound, got \(String(describing: error))")
            return
        }
        #expect(failure.serverMessage == "no such film")
    }

    @Test("a thrown URLError becomes a transport failure")
    func thrownError() async throws {
        let host = "offline.mock-url-protocol.test"
        MockURLProtocol.register(host: host) { _ in throw URLError(.notConnectedToInternet) }
        defer { MockURLProtocol.unregister(host: host) }

        let error = await networkError { _ = try await FilmsService(client: client(host: host)).films() }

        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .notConnected)
    }
}
