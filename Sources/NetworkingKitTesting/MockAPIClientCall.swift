public import Foundation
public import HTTPTypes
public import NetworkingKit

extension MockAPIClient {
    /// One call a ``MockAPIClient`` was asked to make, as the code under test described it.
    ///
    /// ```swift
    /// let call = try #require(mock.calls.first)
    /// #expect(call.method == .post && call.path == "/films/up/rating")
    /// #expect(try call.jsonBody(as: FilmRating.self) == FilmRating(rating: 5))
    /// ```
    public struct Call: Sendable {
        /// The path as the endpoint or request declared it (`"/films/up"`), before any base URL.
        public let path: String
        /// The HTTP method.
        public let method: HTTPMethod
        /// The query parameters, in order; empty when there are none.
        public let queryItems: [URLQueryItem]
        /// The endpoint's or request's own headers (not the client's defaults).
        public let headers: [String: String]
        /// The body exactly as `LiveAPIClient` would send it (JSON-encoded with the mock's
        /// encoder, form-encoded, or raw); `nil` when there is none.
        public let body: Data?
        /// The name of the type the caller asked for (`"Array<PixarFilm>"`).
        public let responseType: String
        /// The URL the call would have had, under the mock's base URL `https://mock.invalid`.
        public let url: URL?

        let responseTypeID: ObjectIdentifier

        /// The body as UTF-8 text.
        public var bodyText: String? { body.flatMap { String(data: $0, encoding: .utf8) } }

        /// The body decoded from JSON with the client's default decoder (snake_case keys,
        /// ISO 8601 dates), the mirror of how it was encoded.
        /// - Throws: `DecodingError` when the body is not that JSON, or a
        ///   ``MockAPIClient/ScriptError/noBody(_:)`` when there is no body.
        public func jsonBody<Body: Decodable>(
            as type: Body.Type = Body.self,
            decoder: any ResponseDecoder = LiveAPIClient.Configuration.defaultDecoder()
        ) throws -> Body {
            guard let body else { throw ScriptError.noBody(self) }
            return try decoder.decode(type, from: body)
        }

        /// The value of the first query parameter called `name`.
        public func queryValue(_ name: String) -> String? {
            queryItems.first { $0.name == name }?.value
        }

        /// `GET /films?page=2 as Array<PixarFilm>`.
        var summary: String {
            var text = "\(method.rawValue) \(path)"
            if !queryItems.isEmpty {
                text += "?" + queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
            }
            return text + " as \(responseType)"
        }
    }

    /// Which calls a stub answers.
    ///
    /// ```swift
    /// mock.stub(.endpoint(PixarAPIEndpoint.films), with: films)
    /// mock.stub(.path("/films/up", method: .get), with: up)
    /// mock.stub(.where { $0.path.hasPrefix("/films/") }, throwing: .notFound(failure))
    /// ```
    public struct Match: Sendable {
        let test: @Sendable (Call) -> Bool
        let label: String
        /// Whether it matches by response type only: such stubs yield to endpoint stubs.
        let isTypeMatch: Bool

        /// Matches calls by an arbitrary test.
        public init(_ label: String = "a predicate", _ test: @escaping @Sendable (Call) -> Bool) {
            self.init(label: label, isTypeMatch: false, test)
        }

        private init(label: String, isTypeMatch: Bool, _ test: @escaping @Sendable (Call) -> Bool) {
            self.label = label
            self.isTypeMatch = isTypeMatch
            self.test = test
        }

        /// Calls with this path and method.
        public static func path(_ path: String, method: HTTPMethod = .get) -> Match {
            Match("\(method.rawValue) \(path)") { $0.path == path && $0.method == method }
        }

        /// Calls with the same path and method as `endpoint` (its query and body are not compared;
        /// use ``where(_:)`` for that).
        public static func endpoint(_ endpoint: some APIEndpoint) -> Match {
            .path(endpoint.path, method: (try? EndpointMembers.method(endpoint.method)) ?? .get)
        }

        /// Calls with the same path and method as `request`.
        public static func request<Value>(_ request: Request<Value>) -> Match {
            .path(request.path, method: request.method)
        }

        /// Calls that ask for a value of `type`, whatever their endpoint.
        public static func type<Value>(_ type: Value.Type) -> Match {
            let id = ObjectIdentifier(type)
            return Match(label: "any call as \(String(describing: type))", isTypeMatch: true) { $0.responseTypeID == id }
        }

        /// Calls for which `test` returns `true`.
        public static func `where`(_ test: @escaping @Sendable (Call) -> Bool) -> Match {
            Match("a predicate", test)
        }
    }

    /// One scripted answer: a value, a value with the status and header fields of its response,
    /// or an error.
    ///
    /// ```swift
    /// // Two pages linked by a `Link` header, for `pages(following:)`.
    /// mock.stub([Todo].self, answers: [
    ///     .response(firstPage, headers: ["Link": "<https://mock.invalid/todos?page=2>; rel=\"next\""]),
    ///     .value(lastPage),
    /// ])
    /// ```
    @nonexhaustive
    public enum Answer<Value: Sendable>: Sendable {
        /// The call returns this value, in a `200 OK` response.
        case value(Value)
        /// The call returns this value in a response with this status and these header fields,
        /// named as everywhere in the testing helpers and endpoints (`["Location": "/films/9"]`);
        /// a `Content-Type` of `application/json` is added when the value is encoded and none is
        /// given. A name that is not a valid field name stops the test, saying which.
        case response(Value, status: HTTPResponse.Status = .ok, headers: [String: String] = [:])
        /// The call throws this error.
        case failure(NetworkError)
    }

    /// Why a ``MockAPIClient`` could not answer; thrown wrapped in ``/NetworkingKit/NetworkError/unknown(_:)``,
    /// with a description that names the call and says how to script it.
    @nonexhaustive
    public enum ScriptError: LocalizedError, Sendable, CustomStringConvertible {
        /// No stub matches the call.
        case unscripted(Call)
        /// A stub matches the call, but its value is of another type than the caller asked for.
        case typeMismatch(Call, scripted: String)
        /// ``Call/jsonBody(as:decoder:)`` was asked for the body of a call that has none.
        case noBody(Call)

        /// The call the error is about.
        public var call: Call {
            switch self {
            case .unscripted(let call), .typeMismatch(let call, _), .noBody(let call): call
            }
        }

        /// The same text as ``description``: a test that shows the error's
        /// `localizedDescription` (an alert in a UI test, say) says which call was not scripted.
        public var errorDescription: String? { description }

        /// What went wrong, naming the call.
        public var description: String {
            switch self {
            case .unscripted(let call):
                "MockAPIClient has no answer scripted for \(call.summary); "
                    + "script one with stub(_:with:) or stub(_:throwing:)"
            case .typeMismatch(let call, let scripted):
                "MockAPIClient's stub for \(call.summary) holds a \(scripted), not a \(call.responseType)"
            case .noBody(let call):
                "\(call.summary) has no body"
            }
        }
    }
}
