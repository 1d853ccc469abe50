#if DemoAPI
import Foundation
import Hummingbird
import NIOCore

/// `/films`, `/films/{id}`, `/films/{id}/characters`, `/films/{id}/rating` and `/search`: the Pixar
/// API with cache validators, for testing a client's decoding and HTTP caching.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FilmRoutes: Sendable {
    let state: DemoState

    /// The default `Cache-Control: max-age`; `?max_age=N` overrides it so cache tests can ask for 0.
    static let defaultMaxAge = 60

    func register(on router: Router<DemoRequestContext>) {
        router.get("/films") { request, _ in
            try cached(request, body: JSONBody.encode(FilmCatalog.films), lastModified: FilmCatalog.listLastModified)
        }
        router.get("/films/{id}") { request, context in
            let film = try film(context)
            return try cached(request, body: JSONBody.encode(film), lastModified: lastModified(of: film))
        }
        router.get("/films/{id}/characters") { request, context in
            let film = try film(context)
            let characters = FilmCatalog.characters(ofFilm: film.id)
            return try cached(request, body: JSONBody.encode(characters), lastModified: lastModified(of: film))
        }
        router.post("/films/{id}/rating") { request, context in
            try await rate(request, context)
        }
        router.get("/search") { request, _ in
            try search(request)
        }
    }

    private func film(_ context: DemoRequestContext) throws -> Film {
        let id = context.parameters.get("id") ?? ""
        guard let film = FilmCatalog.film(id: id) else {
            throw APIError.notFound("No film with id '\(id)'.")
        }
        return film
    }

    private func lastModified(of film: Film) -> Int {
        FilmCatalog.lastModified[film.id] ?? FilmCatalog.listLastModified
    }

    /// The 200 with validators, or a bodiless 304 with the same validators when the client's copy is current.
    private func cached(_ request: Request, body: ByteBuffer, lastModified: Int) throws -> Response {
        let maxAge = try request.queryInt("max_age", in: 0...31_536_000) ?? Self.defaultMaxAge
        let validators = CacheValidators(body: body, lastModified: lastModified, maxAge: maxAge)
        if validators.isNotModified(request) {
            return Response(status: .notModified, headers: validators.headers)
        }
        return JSONBody.response(buffer: body, headers: validators.headers)
    }

    private struct RatingResult: Encodable {
        var filmID: String
        var rating: Int
        var averageRating: Double
        var ratingsCount: Int

        private enum CodingKeys: String, CodingKey {
            case rating
            case filmID = "film_id"
            case averageRating = "average_rating"
            case ratingsCount = "ratings_count"
        }
    }

    private func rate(_ request: Request, _ context: DemoRequestContext) async throws -> Response {
        let film = try film(context)
        let body = try await JSONBody.object(from: request)
        var errors: [APIError.FieldError] = []
        let rating = body["rating"]?.intValue
        if rating.map({ !(1...5).contains($0) }) ?? true {
            errors.append(.init(field: "rating", message: "must be between 1 and 5"))
        }
        switch body["comment"] {
        case nil, .null?:
            break
        case .string(let comment)?:
            if comment.count > 500 {
                errors.append(.init(field: "comment", message: "must be at most 500 characters"))
            }
        case _?:
            errors.append(.init(field: "comment", message: "must be a string"))
        }
        guard errors.isEmpty, let rating else {
            throw APIError.validation("The rating is invalid.", errors)
        }
        let (sum, count) = state.ratings.withLock { ratings in
            ratings[film.id, default: []].append(rating)
            let all = ratings[film.id, default: []]
            return (all.reduce(0, +), all.count)
        }
        let average = (Double(sum) / Double(count) * 100).rounded() / 100
        return try JSONBody.response(RatingResult(filmID: film.id, rating: rating, averageRating: average, ratingsCount: count))
    }

    private struct SearchResult: Encodable {
        var films: [Film]
        var characters: [FilmCharacter]
    }

    private func search(_ request: Request) throws -> Response {
        guard let query = request.query("q"), !query.isEmpty else {
            throw APIError.badRequest("The query parameter 'q' is required and must not be empty.")
        }
        let films = FilmCatalog.films.filter { $0.title.localizedCaseInsensitiveContains(query) }
        let characters = FilmCatalog.characters.filter { $0.name.localizedCaseInsensitiveContains(query) }
        return try JSONBody.response(SearchResult(films: films, characters: characters))
    }
}
#endif
