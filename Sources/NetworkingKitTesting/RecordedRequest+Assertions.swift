public import Foundation
public import NetworkingKit

/// Helpers for asserting on what a ``StubTransport`` received.
///
/// ```swift
/// let sent = try #require(transport.requests(to: "/v1/films/up/rating").first)
/// #expect(sent.method == .post)
/// #expect(try sent.jsonBody(as: FilmRating.self) == FilmRating(rating: 5))
/// #expect(sent.queryValue("notify") == "true")
/// ```
extension RecordedRequest {
    /// The query parameters, in order, decoded from percent-encoding; empty when there is no query.
    public var queryItems: [URLQueryItem] {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
    }

    /// The decoded value of the first query parameter called `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body decoded from JSON with the client's default decoder (snake_case keys, ISO 8601
    /// dates), the mirror of how the client encodes it.
    /// - Throws: `DecodingError`, or ``RecordedRequest/MissingBody`` when the request had none.
    public func jsonBody<Body: Decodable>(
        as type: Body.Type = Body.self,
        decoder: any ResponseDecoder = LiveAPIClient.Configuration.defaultDecoder()
    ) throws -> Body {
        guard let body else { throw MissingBody(method: method.rawValue, path: path) }
        return try decoder.decode(type, from: body)
    }

    /// The body as a URL-encoded form's fields, in order; empty when there is no body.
    public var formFields: [URLQueryItem] {
        guard let bodyText else { return [] }
        var components = URLComponents()
        // A form encodes spaces as `+`; URLComponents reads only `%20`.
        components.percentEncodedQuery = bodyText.replacingOccurrences(of: "+", with: "%20")
        return components.queryItems ?? []
    }

    /// Thrown by ``jsonBody(as:decoder:)`` for a request sent without a body.
    public struct MissingBody: Error, CustomStringConvertible {
        /// The request's method.
        public let method: String
        /// The request's path.
        public let path: String

        /// `POST /films has no body`.
        public var description: String { "\(method) \(path) has no body" }
    }
}
