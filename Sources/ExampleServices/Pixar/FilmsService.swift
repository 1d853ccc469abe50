public import NetworkingKit

/// The films part of an app's services layer: what view models call.
///
/// It depends on `any APIClient`, so a test passes a client over a stub transport (or a test
/// double of its own) and an app a `LiveAPIClient`.
public struct FilmsService: Sendable {
    private let client: any APIClient

    /// Creates the service on top of a client.
    public init(client: any APIClient) {
        self.client = client
    }

    /// All films.
    public func films() async throws -> [PixarFilm] {
        try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
    }

    /// One film.
    public func film(id: String) async throws -> PixarFilm {
        try await client.request(PixarAPIEndpoint.filmDetail(id: id), as: PixarFilm.self)
    }

    /// The characters of a film.
    public func characters(filmID: String) async throws -> [PixarCharacter] {
        try await client.request(PixarAPIEndpoint.characters(filmID: filmID), as: [PixarCharacter].self)
    }

    /// Films and characters matching `query`.
    public func search(_ query: String) async throws -> SearchResults {
        try await client.request(PixarAPIEndpoint.search(query: query), as: SearchResults.self)
    }

    /// Rates a film; a rating outside 1...5 fails with ``NetworkError/validationFailed(_:)``.
    public func rate(filmID: String, rating: Int, comment: String? = nil) async throws -> RatingReceipt {
        try await client.request(
            PixarAPIEndpoint.rateFilm(id: filmID, rating: FilmRating(rating: rating, comment: comment)),
            as: RatingReceipt.self)
    }
}
