// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the Getting started DocC article, compiled: each sits between
// `article-sample` markers, exactly as in the article, and the test below fails when they differ.

private enum GettingStartedArticleSamples {
    static func defineTheEndpoints() {
        // <article-sample>
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
        // </article-sample>
    }

    static func typedRequest(client: LiveAPIClient) async throws {
        // <article-sample>
        let list = Request<[PixarFilm]>(path: "/films")
        let films = try await client.send(list)
        // </article-sample>
        _ = films
    }

    static func makeAClient() {
        // <article-sample>
        let client = LiveAPIClient(baseURL: URL(string: "https://api.pixar.example/v1")!)
        // </article-sample>
        _ = client
    }

    static func services() {
        // <article-sample>
        struct FilmsService {
            let client: any APIClient
            func films() async throws -> [PixarFilm] {
                try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
            }
        }
        // </article-sample>
    }

    /// `film` and `alert` stand for a view model's state.
    static func handleErrors(service: FilmsService, id: String, film: inout PixarFilm?, alert: inout String?) async throws {
        // <article-sample>
        do {
            film = try await service.film(id: id)
        } catch NetworkError.notFound {
            film = nil
        } catch let error as NetworkError {
            alert = error.localizedDescription
        }
        // </article-sample>
    }
}

@Suite("Getting started article samples")
struct GettingStartedArticleTests {
    @Test("every Swift sample of GettingStarted.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/GettingStarted.md", testFile: #filePath, marker: "article-sample")
    }
}
