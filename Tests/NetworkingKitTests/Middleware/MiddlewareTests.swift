import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Appends its name to a header on the way down and to a log on the way up.
struct TaggingMiddleware: Middleware {
    let name: String
    let log: Log

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        var request = request
        let field = HTTPField.Name("X-Chain")!
        request.headerFields[field] = (request.headerFields[field].map { $0 + "," } ?? "") + name
        log.append("\(name) down")
        let result = try await next(request, body, context)
        log.append("\(name) up")
        return result
    }
}

final class Log: Sendable {
    private let entries = LockedState<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var values: [String] { entries.withLock { $0 } }
}

@Suite("Middleware chain")
struct MiddlewareTests {
    @Test("middlewares run in order on the way down and in reverse on the way up")
    func order() async throws {
        let log = Log()
        let (client, transport) = makeClient(middlewares: [
            TaggingMiddleware(name: "first", log: log), TaggingMiddleware(name: "second", log: log),
            TaggingMiddleware(name: "third", log: log),
        ])
        try await client.request(TestEndpoint(path: "/x"))
        #expect(transport.requests.first?.header("X-Chain") == "first,second,third")
        #expect(log.values == ["first down", "second down", "third down", "third up", "second up", "first up"])
    }

    @Test("a middleware can answer without calling next; nothing reaches the transport")
    func shortCircuit() async throws {
        struct Cached: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                HTTPAnswer(HTTPResponse(status: .ok), body: HTTPBody(#"["cached"]"#))
            }
        }
        let (client, transport) = makeClient(middlewares: [Cached()])
        #expect(try await client.send(Request<[String]>(path: "/x")) == ["cached"])
        #expect(transport.requests.isEmpty)
    }

    @Test("a middleware can call next several times, with a replayable body and a new attempt number")
    func callsNextAgain() async throws {
        struct RetryOnce: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                let first = try await next(request, body, context)
                guard first.response.status == .serviceUnavailable, body?.isReplayable ?? true else { return first }
                var context = context
                context.attempt += 1
                return try await next(request, body, context)
            }
        }
        let (client, transport) = makeClient(middlewares: [RetryOnce()]) { request in
            request.attempt == 1 ? .status(.serviceUnavailable) : .json(#"["ok"]"#)
        }
        #expect(try await client.send(Request<[String]>(path: "/x", method: .put, body: .text("payload"))) == ["ok"])
        #expect(transport.requests.map(\.attempt) == [1, 2])
        #expect(transport.requests.map(\.bodyText) == ["payload", "payload"])
    }

    @Test("the context's plan carries the effective timeout and size limit; the options, the endpoint's own; one request id per call")
    func context() async throws {
        struct Capture: Middleware {
            let log: Log
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                log.append(
                    "\(context.plan.timeout)|\(context.plan.responseBodyLimit ?? -1)|\(context.requestID)|\(context.options.timeout.map { "\($0)" } ?? "nil")"
                )
                return try await next(request, body, context)
            }
        }
        let log = Log()
        let (client, _) = makeClient(middlewares: [Capture(log: log)])
        try await client.request(TestEndpoint(path: "/a"))
        try await client.request(TestEndpoint(path: "/b", options: RequestOptions(timeout: .seconds(5))))
        let entries = log.values.map { $0.split(separator: "|").map(String.init) }
        #expect(entries[0][0] == "\(Duration.seconds(60))")
        #expect(entries[1][0] == "\(Duration.seconds(5))")
        #expect(entries[0][1] == "\(LiveAPIClient.Configuration.defaultMaxResponseBodySize)")
        #expect(entries[0][2].count == 16)
        #expect(entries[0][2] != entries[1][2])
        #expect(entries[0][3] == "nil")
        #expect(entries[1][3] == "\(Duration.seconds(5))")
    }

    @Test("typed options that a middleware defines travel with the endpoint")
    func typedOptions() async throws {
        enum SkipAuth: RequestOptionKey { static let defaultValue = false }
        struct Auth: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                var request = request
                if !context.options[SkipAuth.self] { request.headerFields[.authorization] = "Bearer t" }
                return try await next(request, body, context)
            }
        }
        var login = RequestOptions()
        login[SkipAuth.self] = true
        let (client, transport) = makeClient(middlewares: [Auth()])
        try await client.request(TestEndpoint(path: "/me"))
        try await client.request(TestEndpoint(path: "/login", options: login))
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer t", nil])
    }

    @Test("an error that a middleware throws reaches the caller as NetworkError.unknown")
    func middlewareError() async throws {
        struct Failing: Middleware {
            struct Refused: Error {}
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                throw Refused()
            }
        }
        let (client, transport) = makeClient(middlewares: [Failing()])
        let error = await networkError { try await client.request(TestEndpoint(path: "/x")) }
        guard case .unknown(let underlying) = error else {
            Issue.record("expected unknown, got \(String(describing: error))")
            return
        }
        #expect(underlying is Failing.Refused)
        #expect(transport.requests.isEmpty)
    }
}
