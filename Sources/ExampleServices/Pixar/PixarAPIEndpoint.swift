public import Foundation
public import NetworkingKit

/// Every endpoint of the Pixar films API, in the enum shape of seeds 000 and 002.
///
/// The base URL is the client's, so the same endpoints work against production, staging, or a
/// local DemoAPI server on whatever port it got.
public enum PixarAPIEndpoint: APIEndpoint {
    /// All films.
    case films
    /// One film.
    case filmDetail(id: String)
    /// The characters of one film.
    case characters(filmID: String)
    /// Films and characters matching a query.
    case search(query: String)
    /// Rates a film.
    case rateFilm(id: String, rating: FilmRating)

    /// The path of each endpoint; identifiers are escaped as one path segment each.
    public var path: String {
        switch self {
        case .films:
            return "/films"
        case .filmDetail(let id):
            return "/films/\(PathSegment.escape(id))"
        case .characters(let filmID):
            return "/films/\(PathSegment.escape(filmID))/characters"
        case .search:
            return "/search"
        case .rateFilm(let id, _):
            return "/films/\(PathSegment.escape(id))/rating"
        }
    }

    /// `POST` to rate, `GET` for the rest.
    public var method: HTTPMethod {
        switch self {
        case .films, .filmDetail, .characters, .search:
            return .get
        case .rateFilm:
            return .post
        }
    }

    /// The search query.
    public var queryItems: [URLQueryItem]? {
        switch self {
        case .search(let query):
            return [URLQueryItem(name: "q", value: query)]
        default:
            return nil
        }
    }

    /// The rating, sent as JSON.
    public var body: (any Encodable)? {
        switch self {
        case .rateFilm(_, let rating):
            return rating
        default:
            return nil
        }
    }
}
