public import Foundation
public import HTTPTypes

/// One request as a value whose response type travels with it (seed 001's `APIRequest`).
///
/// ```swift
/// enum Films {
///     static let list = Request<[PixarFilm]>(path: "/films")
///     static func rate(_ id: String, _ rating: FilmRating) -> Request<RatingReceipt> {
///         Request(path: "/films/\(PathSegment.escape(id))/rating", method: .post, body: .json(rating))
///     }
/// }
/// let films = try await client.send(Films.list)
/// ```
///
/// `path` is relative to the client's base URL, or an absolute `http(s)://` URL. It follows the
/// same escaping rules as ``APIEndpoint/path``.
///
/// A request is an ``APIEndpoint``: every call that takes an endpoint (`bytes`, `download`,
/// `upload`, `events`, `lines`) takes a request too, and ``APIClient/send(_:)-(Request<T>)`` and
/// ``APIClient/response(_:)`` decode its answer into `Response` without being told the type.
public struct Request<Response>: Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path below the client's base URL, or an absolute URL.
    public var path: String
    /// Query parameters, in order; repeated names are kept.
    public var query: [URLQueryItem]
    /// Headers of this request; they override the client's default headers of the same name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: RequestBody?
    /// Per-request options: timeout, size limit, and those that middlewares define.
    public var options: RequestOptions

    /// Creates a request.
    public init(
        path: String,
        method: HTTPMethod = .get,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil,
        options: RequestOptions = .default
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.options = options
    }

    /// The same request, expecting another response type.
    public func expecting<NewResponse>(_ type: NewResponse.Type = NewResponse.self) -> Request<NewResponse> {
        Request<NewResponse>(path: path, method: method, query: query, headers: headers, body: body, options: options)
    }
}

extension Request: APIEndpoint {
    /// ``query``, as an endpoint gives it.
    public var queryItems: [URLQueryItem]? { query }
    /// ``body``, as an endpoint gives a body of any kind.
    public var requestBody: RequestBody? { body }
}
