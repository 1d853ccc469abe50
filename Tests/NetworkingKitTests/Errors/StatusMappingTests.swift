import Foundation
import NetworkingKitTesting
import Testing

@testable import NetworkingKit

@Suite("Status codes map to NetworkError cases")
struct StatusMappingTests {
    private func error(for status: Int, body: String = #"{"message":"from server"}"#, headers: [String: String] = [:]) async
        -> NetworkError?
    {
        let (client, _) = makeClient { _ in
            .json(body, status: HTTPResponse.Status(code: status), headers: headers)
        }
        return await networkError { _ = try await client.send(Request<[String]>(path: "/x")) }
    }

    @Test(
        "each status has its case",
        arguments: [
            (400, "badRequest"), (401, "unauthorized"), (403, "forbidden"), (404, "notFound"), (409, "conflict"),
            (422, "validationFailed"), (429, "rateLimited"), (405, "clientError"), (410, "clientError"),
            (418, "clientError"), (499, "clientError"), (500, "serverError"), (502, "serverError"), (503, "serverError"),
            (504, "serverError"), (599, "serverError"), (304, "unexpectedStatus"), (302, "unexpectedStatus"),
        ])
    func mapping(status: Int, expectedCase: String) async throws {
        let error = try #require(await error(for: status))
        #expect(String(describing: error).isEmpty == false)
        let name: String
        switch error {
        case .badRequest: name = "badRequest"
        case .unauthorized: name = "unauthorized"
        case .forbidden: name = "forbidden"
        case .notFound: name = "notFound"
        case .conflict: name = "conflict"
        case .validationFailed: name = "validationFailed"
        case .rateLimited: name = "rateLimited"
        case .clientError: name = "clientError"
        case .serverError: name = "serverError"
        case .unexpectedStatus: name = "unexpectedStatus"
        default: name = "other: \(error)"
        }
        #expect(name == expectedCase)
        #expect(error.statusCode == status)
        #expect(error.request?.description == "GET https://api.example.com/v1/x")
    }

    @Test("the failure keeps status, headers, a copy of the body and the decoded server error")
    func failureDetails() async throws {
        let error = try #require(
            await error(for: 404, body: #"{"message":"No film with id 42","code":"film_not_found"}"#, headers: ["X-Request-Id": "abc"]))
        let failure = try #require(error.failure)
        #expect(failure.status == .notFound)
        #expect(failure.headerFields[HTTPField.Name("X-Request-Id")!] == "abc")
        #expect(String(data: failure.body, encoding: .utf8)?.contains("No film with id 42") == true)
        #expect(failure.serverMessage == "No film with id 42")
        #expect(failure.serverError?.code == "film_not_found")
        #expect(error.localizedDescription == "No film with id 42")
        #expect(error.description.contains("GET https://api.example.com/v1/x -> 404"))
    }

    @Test("422 field errors are decoded from a list or from an object of fields")
    func validationErrors() async throws {
        let list = try #require(
            await error(
                for: 422,
                body: #"{"message":"Invalid rating","errors":[{"field":"rating","message":"must be between 1 and 5"}]}"#))
        #expect(list.failure?.fieldErrors == [FieldError(field: "rating", message: "must be between 1 and 5")])
        #expect(list.localizedDescription == "Rating: must be between 1 and 5")

        let object = try #require(
            await error(for: 422, body: #"{"errors":{"title":["is required","is too short"],"user_id":["must be positive"]}}"#))
        #expect(
            object.failure?.fieldErrors == [
                FieldError(field: "title", message: "is required"), FieldError(field: "title", message: "is too short"),
                FieldError(field: "user_id", message: "must be positive"),
            ])
    }

    @Test("a 422's message names fields as the app says, or readably from their keys")
    func fieldNames() async throws {
        let body = #"{"errors":{"userId":["is required"],"due_date":["must be in the future"],"address.zipCode":["is too short"]}}"#
        var configuration = LiveAPIClient.Configuration(
            baseURL: testBaseURL, transport: StubTransport { _ in .json(body, status: .unprocessableContent) })
        configuration.fieldNames = ["userId": "Owner"]
        let named = await networkError { _ = try await LiveAPIClient(configuration: configuration).send(Request<Data>(path: "/x")) }
        // The raw keys ("userId: is required") were what a user read before.
        #expect(named?.localizedDescription == "Zip code: is too short\nDue date: must be in the future\nOwner: is required")

        #expect(HTTPFailure.readableName(of: "userId") == "User id")
        #expect(HTTPFailure.readableName(of: "user_id") == "User id")
        #expect(HTTPFailure.readableName(of: "avatarURL") == "Avatar URL")
        #expect(HTTPFailure.readableName(of: "items.0.name") == "Name")
        #expect(HTTPFailure.readableName(of: "") == "")
    }

    @Test("a non-JSON error body is kept but not decoded; the message falls back to a generic one")
    func nonJSONErrorBody() async throws {
        let (client, _) = makeClient { _ in .text("<html>Bad Gateway</html>", status: .badGateway, contentType: "text/html") }
        let error = try #require(await networkError { _ = try await client.send(Request<[String]>(path: "/x")) })
        #expect(error.failure?.serverError == nil)
        #expect(error.failure.map { String(decoding: $0.body, as: UTF8.self) } == "<html>Bad Gateway</html>")
        #expect(error.localizedDescription.contains("error 502"))
    }

    @Test("429 parses Retry-After as seconds")
    func retryAfterSeconds() async throws {
        let error = try #require(await error(for: 429, headers: ["Retry-After": "120"]))
        guard case .rateLimited(_, let retryAfter) = error else {
            Issue.record("expected rateLimited, got \(error)")
            return
        }
        #expect(retryAfter == .seconds(120))
        #expect(error.localizedDescription == "Too many requests. Try again in 120 seconds.")
    }

    @Test("429 parses Retry-After as an HTTP date, in all three formats")
    func retryAfterDate() async throws {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        for value in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryAfter(headerValue: value) == .date(expected), "\(value)")
        }
        let error = try #require(await error(for: 429, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        guard case .rateLimited(_, .date(let date)?) = error else {
            Issue.record("expected rateLimited with a date, got \(error)")
            return
        }
        #expect(date == expected)
        #expect(RetryAfter.date(expected).delay(from: expected.addingTimeInterval(-30)) == 30)
        #expect(RetryAfter.date(expected).delay(from: expected.addingTimeInterval(30)) == 0)
    }

    @Test("an unparsable Retry-After is ignored, not fatal", arguments: ["soon", "-5", "1.5", ""])
    func badRetryAfter(value: String) async throws {
        let error = try #require(await error(for: 429, headers: ["Retry-After": value]))
        guard case .rateLimited(_, nil) = error else {
            Issue.record("expected rateLimited without Retry-After, got \(error)")
            return
        }
        #expect(error.localizedDescription == "Too many requests. Please wait a moment and try again.")
    }

    @Test("an absurd Retry-After is capped, and the message still reads")
    func hugeRetryAfter() async throws {
        let error = try #require(await error(for: 429, headers: ["Retry-After": "99999999999999999999999"]))
        guard case .rateLimited(_, .seconds(let seconds)?) = error else {
            Issue.record("expected rateLimited with seconds, got \(error)")
            return
        }
        #expect(seconds == RetryAfter.maxSeconds)
        #expect(error.localizedDescription.hasPrefix("Too many requests."))
    }

    @Test("an error body that breaks off keeps the status and what arrived")
    func errorBodyBreaksOff() async throws {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.yield(Data(#"{"message":"No fi"#.utf8))
        continuation.finish(throwing: NetworkError.transport(TransportFailure(kind: .connectionLost)))
        let (client, _) = makeClient { _ in
            StubResponse(
                status: .notFound, headers: ["Content-Type": "application/json"],
                body: HTTPBody(stream, length: .unknown, iterationBehavior: .single))
        }
        let error = try #require(await networkError { _ = try await client.send(Request<[String]>(path: "/x")) })
        guard case .notFound(let failure) = error else {
            Issue.record("expected notFound, got \(error)")
            return
        }
        #expect(String(decoding: failure.body, as: UTF8.self) == #"{"message":"No fi"#)
        #expect(failure.isBodyTruncated)
        #expect(failure.serverError == nil)
    }

    @Test("the error body type is configurable per client")
    func customErrorBody() async throws {
        struct ProblemDetails: ServerErrorBody {
            let title: String
            let detail: String
            var message: String? { "\(title): \(detail)" }
            var code: String? { nil }
            var fieldErrors: [FieldError] { [] }
        }
        let (client, _) = makeClient(errorBodyType: ProblemDetails.self) { _ in
            .json(#"{"title":"Out of stock","detail":"No more tickets"}"#, status: .conflict)
        }
        let error = try #require(await networkError { _ = try await client.send(Request<[String]>(path: "/x")) })
        #expect(error.failure?.serverError(as: ProblemDetails.self)?.title == "Out of stock")
        #expect(error.localizedDescription == "Out of stock: No more tickets")
    }

    @Test("the copy of an error body is bounded")
    func boundedErrorBody() async throws {
        let big = String(repeating: "x", count: HTTPFailure.maxBodyCopy * 3)
        let (client, _) = makeClient { _ in .text(big, status: .internalServerError) }
        let error = try #require(await networkError { _ = try await client.send(Request<[String]>(path: "/x")) })
        #expect(error.failure?.body.count == HTTPFailure.maxBodyCopy)
        #expect(error.failure?.isBodyTruncated == true)
    }

    @Test("validatesStatus false hands back a non-2xx answer whole, its status readable; streamed calls still check it")
    func answerWithoutValidation() async throws {
        let big = String(repeating: "x", count: HTTPFailure.maxBodyCopy * 3)
        let (client, _) = makeClient { _ in .text(big, status: .unprocessableContent) }
        var options = RequestOptions()
        options.validatesStatus = false
        let response = try await client.response(Request<Data>(path: "/x", options: options))
        #expect(response.response.status == .unprocessableContent)
        #expect(response.value.count == big.utf8.count)
        // Still within the size limit, as any answer.
        options.maxResponseBodySize = 1024
        let tooLarge = await networkError { _ = try await client.response(Request<Data>(path: "/x", options: options)) }
        guard case .responseTooLarge(limit: 1024, _)? = tooLarge else {
            Issue.record("expected responseTooLarge, got \(String(describing: tooLarge))")
            return
        }
        // A streamed call's reader expects what it asked for.
        options.maxResponseBodySize = nil
        let streamed = await networkError { _ = try await client.bytes(Request<Data>(path: "/x", options: options)) }
        guard case .validationFailed? = streamed else {
            Issue.record("expected validationFailed, got \(String(describing: streamed))")
            return
        }
    }

    @Test("validatesStatus false leaves the middlewares' view alone: a 503 is retried, and the last answer is handed back")
    func answerWithoutValidationIsRetried() async throws {
        let (client, transport) = makeClient(middlewares: [
            RetryMiddleware(policy: RetryPolicy(maxAttempts: 2, baseDelay: .zero, jitter: .none))
        ]) {
            _ in .text("busy", status: .serviceUnavailable)
        }
        var options = RequestOptions()
        options.validatesStatus = false
        let response = try await client.response(Request<String>(path: "/x", options: options))
        #expect(response.response.status == .serviceUnavailable)
        #expect(response.value == "busy")
        #expect(transport.requests.count == 2)
    }

    @Test("every case has a readable message without jargon")
    func userMessages() {
        let request = RequestSummary(method: .get, url: URL(string: "https://api.example.com/films"))
        let failure = { (code: Int) in HTTPFailure(request: request, response: HTTPResponse(status: .init(code: code))) }
        let errors: [NetworkError] = [
            .invalidURL("x", reason: "no scheme"), .invalidRequest(reason: "bad header"), .badRequest(failure(400)),
            .unauthorized(failure(401)), .forbidden(failure(403)), .notFound(failure(404)), .conflict(failure(409)),
            .validationFailed(failure(422)), .rateLimited(failure(429), retryAfter: nil), .clientError(failure(418)),
            .serverError(failure(503)), .unexpectedStatus(failure(302)),
            .transport(TransportFailure(kind: .connectionRefused)), .timeout(request), .cancelled,
            .responseTooLarge(limit: 10, request: request), .bodyNotReplayable,
            .decodingFailed(DecodingFailure(typeName: "Film", codingPath: "", reason: "x", snippet: "", request: request, underlying: nil)),
        ]
        for error in errors {
            let message = error.localizedDescription
            #expect(!message.isEmpty)
            #expect(!message.contains("https://"), "\(message)")
            #expect(message.hasSuffix(".") || message.contains(":"), "\(message)")
        }
    }

    @Test("a failure reads 'status phrase' with the phrase it has, and the status alone without one: no trailing space")
    func failureDescription() async throws {
        let notFound = await error(for: 404)
        #expect(notFound?.failure?.description.hasSuffix("-> 404") == true)
        let unnamed = await error(for: 499)
        #expect(unnamed?.failure?.description.hasSuffix("-> 499") == true)
        let named = HTTPFailure(
            request: RequestSummary(method: .get, url: nil),
            response: HTTPResponse(status: HTTPResponse.Status(code: 404, reasonPhrase: "Not Found")), body: Data())
        #expect(named.description.hasSuffix("-> 404 Not Found"))
    }
}
