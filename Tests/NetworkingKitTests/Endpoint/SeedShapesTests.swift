import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Endpoints and interceptors written in the seeds' shapes send what they say, or fail before
/// anything is sent: nothing is silently dropped.
@Suite("Seed shapes", .timeLimit(.minutes(5)))
struct SeedShapesTests {
    /// The seeds' own method enum, which shadows the library's `HTTPMethod` where it is declared.
    enum HTTPMethod: String {
        case get = "GET"
        case post = "POST"
        case patch
    }

    struct Rating: Codable, Sendable, Equatable {
        let rating: Int
    }

    enum Films: APIEndpoint {
        case rate(id: String, rating: Rating)
        case rename(id: String)
        case upload(Data?)
        case typed(Rating?)

        var path: String { "/films" }
        var method: HTTPMethod {
            switch self {
            case .rate, .upload, .typed: .post
            case .rename: .patch
            }
        }
    }

    /// Seed 000's shape: an endpoint's `body: (any Encodable)?` with the seed's method enum.
    enum Rate: APIEndpoint {
        case rate(Rating)
        var path: String { "/films/up/rating" }
        var method: HTTPMethod { .post }
        var body: (any Encodable)? {
            if case .rate(let rating) = self { return rating }
            return nil
        }
    }

    /// Seed 003's shape: a body the endpoint encoded itself.
    enum Create: APIEndpoint {
        case create(Rating)
        var path: String { "/todos" }
        var method: HTTPMethod { .post }
        var body: Data? {
            switch self {
            case .create(let rating): try? JSONEncoder().encode(rating)
            }
        }
    }

    /// A body of a declared `Encodable` type.
    struct Typed: APIEndpoint {
        var path: String { "/films" }
        var method: NetworkingKit.HTTPMethod { .put }
        var body: Rating? { Rating(rating: 3) }
    }

    @Test("a method of the seeds' own `enum HTTPMethod: String` is sent by its raw value, in capitals")
    func seedMethodEnum() async throws {
        let (client, transport) = makeClient { _ in .status(.noContent) }
        try await client.request(Rate.rate(Rating(rating: 5)))
        try await client.request(Films.rename(id: "up"))
        #expect(transport.requests.map(\.method) == [.post, .patch])
        #expect(transport.requests.first?.body == Data(#"{"rating":5}"#.utf8))
        #expect(transport.requests.first?.header("Content-Type") == "application/json")
    }

    @Test("a body declared `Data?` is sent as it is, as JSON; one of a declared Encodable type is encoded")
    func dataAndTypedBodies() async throws {
        let (client, transport) = makeClient { _ in .status(.noContent) }
        try await client.request(Create.create(Rating(rating: 4)))
        try await client.request(Typed())
        let sent = transport.requests
        #expect(sent.map(\.method) == [.post, .put])
        #expect(sent.map(\.bodyText) == [#"{"rating":4}"#, #"{"rating":3}"#])
        #expect(sent.map { $0.header("Content-Type") } == ["application/json", "application/json"])
    }

    @Test("a body declared as a RequestBody, optional or not, is sent as the body it describes")
    func requestBodyAsBody() async throws {
        enum Upload: APIEndpoint {
            case text, none
            var path: String { "/notes" }
            var method: NetworkingKit.HTTPMethod { .post }
            var body: RequestBody? {
                switch self {
                case .text: .text("Up")
                case .none: nil
                }
            }
        }
        struct Form: APIEndpoint {
            var path: String { "/form" }
            var method: NetworkingKit.HTTPMethod { .post }
            var body: RequestBody { .form(["name": "Up"]) }
        }
        let (client, transport) = makeClient { _ in .status(.noContent) }
        try await client.request(Upload.text)
        try await client.request(Upload.none)
        try await client.request(Form())
        #expect(transport.requests.map(\.bodyText) == ["Up", nil, "name=Up"])
        #expect(transport.requests.first?.header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test("a nil body of any declared type sends no body")
    func nilBodies() async throws {
        let (client, transport) = makeClient { _ in .status(.noContent) }
        try await client.request(Films.upload(nil))
        try await client.request(Films.typed(nil))
        #expect(transport.requests.map(\.body) == [nil, nil])
    }

    @Test("a method that names no HTTP method, or a body that is neither Data nor Encodable, fails before anything is sent")
    func unusableMembers() async throws {
        struct Spaced: APIEndpoint {
            var path: String { "/x" }
            var method: String { "NOT A METHOD" }
        }
        struct NotEncodable: Sendable {}
        struct Opaque: APIEndpoint {
            var path: String { "/x" }
            var body: NotEncodable { NotEncodable() }
        }
        let (client, transport) = makeClient { _ in .status(.noContent) }
        let badMethod = await networkError { try await client.request(Spaced()) }
        let badBody = await networkError { try await client.request(Opaque()) }
        for error in [badMethod, badBody] {
            guard case .invalidRequest? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                continue
            }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("a type that is both a request and a response interceptor (seed 004) is one middleware, and both run")
    func bothInterceptors() async throws {
        final class LoggingInterceptor: RequestInterceptor, ResponseInterceptor {
            let seen = LockedState<[String]>([])
            func intercept(_ request: URLRequest) async throws -> URLRequest {
                seen.withLock { $0.append(">>> \(request.httpMethod ?? "GET") \(request.url?.path ?? "")") }
                var request = request
                request.setValue("yes", forHTTPHeaderField: "X-Logged")
                return request
            }
            func intercept(data: Data, response: URLResponse) async throws -> (Data, URLResponse) {
                seen.withLock { $0.append("<<< \((response as? HTTPURLResponse)?.statusCode ?? 0) \(data.count)") }
                return (data, response)
            }
        }
        let logging = LoggingInterceptor()
        let (client, transport) = makeClient(middlewares: [logging.middleware]) { _ in .json(#"["Up"]"#) }
        #expect(try await client.send(Request<[String]>(path: "/films")) == ["Up"])
        #expect(transport.requests.first?.header("X-Logged") == "yes")
        #expect(logging.seen.withLock { $0 } == [">>> GET /v1/films", "<<< 200 6"])
    }
}
