public import Foundation
public import HTTPTypes

/// The HTTP method of a request: swift-http-types' method type, with `.get`, `.post`, `.put`,
/// `.patch`, `.delete` and the rest as static members.
public typealias HTTPMethod = HTTPRequest.Method

/// One endpoint of an API, described as a value; the client builds, sends and decodes it.
///
/// Define an API's endpoints once, usually as an enum, and override only what differs from the
/// defaults:
///
/// ```swift
/// enum PixarAPIEndpoint: APIEndpoint {
///     case films
///     case filmDetail(id: String)
///     case rateFilm(id: String, rating: FilmRating)
///
///     var path: String {
///         switch self {
///         case .films: "/films"
///         case .filmDetail(let id): "/films/\(PathSegment.escape(id))"
///         case .rateFilm(let id, _): "/films/\(PathSegment.escape(id))/rating"
///         }
///     }
///     var method: HTTPMethod {
///         if case .rateFilm = self { return .post }
///         return .get
///     }
///     var body: (any Encodable)? {
///         if case .rateFilm(_, let rating) = self { return rating }
///         return nil
///     }
/// }
///
/// let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
/// ```
///
/// ## URLs
///
/// ``path`` is appended to the base URL: `/` separates segments, and every other character that
/// cannot appear in a path (space, `?`, `#`, non-ASCII) is percent-encoded, so `"/search?q=x"`
/// is a path, never a query. Escape a value that may itself contain `/` with
/// ``PathSegment/escape(_:)``. Query parameters go in ``queryItems``; they are encoded strictly,
/// so `+`, `&` and `=` in a value arrive as themselves.
///
/// The base URL is the client's (`LiveAPIClient.Configuration.baseURL`) unless the endpoint
/// returns an absolute ``baseURL`` of its own; a relative one (`/v2`) is a prefix on the client's.
///
/// ## Method and body types
///
/// ``method`` and ``body`` may be declared with other types than the library's, as code written
/// before NetworkingKit often has them, and are sent as declared, never silently dropped:
/// - a method of an enum whose `String` raw values name methods (`enum HTTPMethod: String` with
///   `case post = "POST"`, or `case post`) is sent by its raw value, in capitals;
/// - a body of type `Data` or `Data?` is sent as it is, with `Content-Type: application/json`
///   unless ``headers`` give another; a body of any `Encodable` type (`FilmRating?`) is encoded
///   as JSON.
/// A method or body of another type fails the call with ``NetworkError/invalidRequest(reason:)``
/// before anything is sent.
public protocol APIEndpoint: Sendable {
    /// The type ``method`` is declared with: ``HTTPMethod`` unless the endpoint declares its own.
    associatedtype Method: Sendable = HTTPMethod
    /// The type ``body`` is declared with: `(any Encodable)?` unless the endpoint declares its own.
    associatedtype Body = (any Encodable)?

    /// The base URL: absolute to stand alone, relative (the default, `/`) to extend the client's.
    var baseURL: URL { get }
    /// The path below the base URL, with or without a leading slash.
    var path: String { get }
    /// The HTTP method; `GET` by default.
    var method: Method { get }
    /// Headers of this endpoint; they override the client's default headers of the same name.
    var headers: [String: String] { get }
    /// Query parameters, in order; repeated names are kept. `nil` or empty adds no `?`.
    var queryItems: [URLQueryItem]? { get }
    /// A value sent as the JSON body, encoded with the client's encoder (`Data` is sent as it is).
    var body: Body { get }
    /// A body of another kind (raw data, a form, a stream); it takes precedence over ``body``.
    var requestBody: RequestBody? { get }
    /// Per-endpoint options: timeout, size limit, and those that middlewares define.
    var options: RequestOptions { get }
}

extension APIEndpoint {
    /// The relative URL `/`: the client's base URL, unchanged.
    public var baseURL: URL { RequestTarget.clientBaseURL }
    /// No headers of its own.
    public var headers: [String: String] { [:] }
    /// No query.
    public var queryItems: [URLQueryItem]? { nil }
    /// No body of another kind.
    public var requestBody: RequestBody? { nil }
    /// The client's defaults.
    public var options: RequestOptions { .default }
}

extension APIEndpoint where Method == HTTPMethod {
    /// `GET`.
    public var method: HTTPMethod { .get }
}

extension APIEndpoint where Body == (any Encodable)? {
    /// No body.
    public var body: (any Encodable)? { nil }
}
