import Foundation
public import HTTPTypes
public import NetworkingKit

/// One entry of a ``StubTransport``'s route table: which requests it matches (a method and a
/// path: exact, prefix or test) and how it answers them.
///
/// ```swift
/// let transport = StubTransport(routes: [
///     .get("/v1/films", try .json([PixarFilm.toyStory])),
///     .post("/v1/films/up/rating", .status(.created)),
///     StubRoute(.delete, .prefix("/v1/todos/")) { _ in .status(.noContent) },
///     StubRoute(.get, .matching { $0.hasSuffix("/poster") }, .data(posterBytes)),
/// ])
/// ```
///
/// Paths are compared with ``RecordedRequest/path``: the full, percent-encoded path of the URL,
/// the base URL's path included (`/v1/films` for a client on `https://api.test/v1`).
public struct StubRoute: Sendable {
    /// How a route compares a request's path.
    public struct Path: Sendable, ExpressibleByStringLiteral {
        let test: @Sendable (String) -> Bool

        /// A path compared by a test.
        public static func matching(_ test: @escaping @Sendable (String) -> Bool) -> Path {
            Path(test: test)
        }

        /// Exactly this path.
        public static func exact(_ path: String) -> Path {
            Path { $0 == path }
        }

        /// Every path that starts with `prefix`.
        public static func prefix(_ prefix: String) -> Path {
            Path { $0.hasPrefix(prefix) }
        }

        /// Exactly this path.
        public init(stringLiteral path: String) {
            self.test = { $0 == path }
        }

        init(test: @escaping @Sendable (String) -> Bool) {
            self.test = test
        }
    }

    let matches: @Sendable (RecordedRequest) -> Bool
    let handler: StubTransport.Handler

    /// A route that answers requests with `method` (any method when `nil`) and a matching path
    /// with `handler`.
    public init(_ method: HTTPMethod?, _ path: Path, handler: @escaping StubTransport.Handler) {
        self.matches = { request in
            (method.map { $0 == request.method } ?? true) && path.test(request.path)
        }
        self.handler = handler
    }

    /// A route that answers requests with `method` (any method when `nil`) and a matching path
    /// with `response`.
    public init(_ method: HTTPMethod?, _ path: Path, _ response: StubResponse) {
        self.init(method, path) { _ in response }
    }

    /// A route that answers the requests `matches` accepts with `handler`.
    public init(
        matching matches: @escaping @Sendable (RecordedRequest) -> Bool,
        handler: @escaping StubTransport.Handler
    ) {
        self.matches = matches
        self.handler = handler
    }

    /// `GET` on `path`.
    public static func get(_ path: Path, _ response: StubResponse) -> StubRoute {
        StubRoute(.get, path, response)
    }

    /// `POST` on `path`.
    public static func post(_ path: Path, _ response: StubResponse) -> StubRoute {
        StubRoute(.post, path, response)
    }

    /// `PUT` on `path`.
    public static func put(_ path: Path, _ response: StubResponse) -> StubRoute {
        StubRoute(.put, path, response)
    }

    /// `PATCH` on `path`.
    public static func patch(_ path: Path, _ response: StubResponse) -> StubRoute {
        StubRoute(.patch, path, response)
    }

    /// `DELETE` on `path`.
    public static func delete(_ path: Path, _ response: StubResponse) -> StubRoute {
        StubRoute(.delete, path, response)
    }
}

extension StubTransport {
    /// Creates a transport that answers each request from the first route that matches it, after
    /// `latency` on `clock`.
    ///
    /// A request no route matches gets a `404 Not Found` whose text names the request, so a
    /// missing route shows up in the test's failure rather than crashing it.
    public convenience init(
        routes: [StubRoute],
        latency: Duration = .zero,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(latency: latency, clock: clock) { request in
            guard let route = routes.first(where: { $0.matches(request) }) else {
                return .text(
                    "StubTransport has no route for \(request.method.rawValue) \(request.path)", status: .notFound)
            }
            return try await route.handler(request)
        }
    }
}
