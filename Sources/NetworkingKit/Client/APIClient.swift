/// What view models and services depend on: sends an endpoint (an ``APIEndpoint``, or a typed
/// ``Request``, which is one) and returns the decoded answer.
///
/// Two requirements, so that a hand-written mock is a few lines: ``response(_:as:)`` for answers
/// read whole and ``bytes(_:)`` for streamed ones; every other call (`request`, `send`,
/// `download`, `upload`, `events`, `lines`, `pages`) is built on them.
///
/// Depend on `any APIClient` (or a generic `some APIClient`), never on ``LiveAPIClient``: tests
/// then pass a client of their own, or a ``LiveAPIClient`` over NetworkingKitTesting's
/// `StubTransport`.
///
/// ```swift
/// let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
/// let film = try await client.send(Films.detail(id: "1"))
/// try await client.send(Todos.delete(id: 3))            // Request<Void>
/// let answer = try await client.response(Films.list)      // value + status, headers, timing
/// let poster = try await client.download(Films.poster(id: "1"), to: posterURL)
/// ```
///
/// Every failure is a ``NetworkError``.
public protocol APIClient: Sendable {
    /// Sends an endpoint and decodes its answer, keeping the response details.
    func response<T: Decodable & Sendable>(_ endpoint: some APIEndpoint, as type: T.Type) async throws -> Response<T>

    /// Sends an endpoint and returns once the response head has arrived, with the body as a
    /// stream read as it arrives; the base of ``download(_:to:resumable:progress:)``.
    func bytes(_ endpoint: some APIEndpoint) async throws -> StreamedResponse
}

extension APIClient {
    /// Sends an endpoint and returns its decoded answer (seed 000's call shape).
    public func request<T: Decodable & Sendable>(
        _ endpoint: some APIEndpoint,
        as type: T.Type = T.self
    ) async throws -> T {
        try await response(endpoint, as: type).value
    }

    /// Sends an endpoint whose answer carries nothing the caller needs (a 204, say).
    public func request(_ endpoint: some APIEndpoint) async throws {
        _ = try await response(endpoint, as: EmptyResponse.self)
    }

    /// Sends a typed request and decodes its answer into the request's response type, keeping the
    /// response details.
    public func response<T: Decodable & Sendable>(_ request: Request<T>) async throws -> Response<T> {
        try await response(request, as: T.self)
    }

    /// Sends a typed request and returns its decoded answer.
    public func send<T: Decodable & Sendable>(_ request: Request<T>) async throws -> T {
        try await response(request, as: T.self).value
    }

    /// Sends a request whose answer carries nothing the caller needs.
    public func send(_ request: Request<Void>) async throws {
        _ = try await response(request, as: EmptyResponse.self)
    }
}

/// The answer type for calls whose response body, if any, is ignored.
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates an empty response.
    public init() {}

    /// Accepts any body.
    public init(from decoder: any Decoder) throws {}
}
