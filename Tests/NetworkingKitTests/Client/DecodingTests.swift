import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Decoding answers")
struct DecodingTests {
    struct Film: Codable, Sendable, Equatable {
        let id: String
        let title: String
        let releaseDate: Date
    }

    @Test("JSON decodes with snake_case keys and ISO 8601 dates, with or without fractions")
    func decodesJSON() async throws {
        let (client, _) = makeClient { _ in
            .json(
                #"[{"id":"1","title":"Toy Story","release_date":"1995-11-22T00:00:00Z"},{"id":"2","title":"Up","release_date":"2009-05-29T12:30:00.250Z"}]"#
            )
        }
        let films = try await client.send(Request<[Film]>(path: "/films"))
        #expect(films.map(\.title) == ["Toy Story", "Up"])
        #expect(films[0].releaseDate == Date(timeIntervalSince1970: 816_998_400))
        #expect(abs(films[1].releaseDate.timeIntervalSince1970 - 1_243_600_200.25) < 0.001)
    }

    @Test("a decoding failure carries the coding path and a snippet of the body")
    func decodingFailurePath() async throws {
        let (client, _) = makeClient { _ in
            .json(#"[{"id":"1","title":"Toy Story","release_date":"1995-11-22T00:00:00Z"},{"id":"2","title":7,"release_date":"x"}]"#)
        }
        let error = await networkError { _ = try await client.send(Request<[Film]>(path: "/films")) }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == "[1].title")
        #expect(failure.typeName == "Array<Film>")
        #expect(failure.snippet.hasPrefix(#"[{"id":"1""#))
        #expect(failure.request?.description == "GET https://api.example.com/v1/films")
        #expect(error?.description.contains("[1].title") == true)
        // One full stop, whether the reason brings its own (Foundation's do) or not.
        #expect(failure.reason.hasSuffix("."))
        #expect(error?.description.contains(". Body: ") == true)
        #expect(error?.description.contains(".. Body: ") == false)
        let own = DecodingFailure(typeName: "Film", codingPath: "", reason: "no number", snippet: "x", request: nil, underlying: nil)
        #expect(own.description == #"could not decode Film: no number. Body: "x""#)
    }

    @Test("a missing key names the key in the path")
    func missingKey() async throws {
        let (client, _) = makeClient { _ in .json(#"{"id":"1","release_date":"1995-11-22T00:00:00Z"}"#) }
        let error = await networkError { _ = try await client.send(Request<Film>(path: "/films/1")) }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == "title")
    }

    @Test("an HTML page labelled as HTML where JSON was expected fails naming its type, with its body kept")
    func htmlInsteadOfJSON() async throws {
        let html = "<!DOCTYPE html><html><body>" + String(repeating: "Maintenance ", count: 100) + "</body></html>"
        let (client, _) = makeClient { _ in .text(html, contentType: "text/html; charset=utf-8") }
        let error = await networkError { _ = try await client.send(Request<[Film]>(path: "/films")) }
        guard case .unacceptableContentType(let failure, let accepted)? = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(accepted == ["application/json", "+json"])
        #expect(String(decoding: failure.body, as: UTF8.self) == html)
        #expect(error?.statusCode == 200)
        #expect(error?.description.contains("text/html") == true)
        #expect(error?.localizedDescription.contains("unexpected kind") == true)
        #expect(error == .unacceptableContentType(failure, accepted: ["application/json", "+json"]))
    }

    @Test("an HTML page with no Content-Type is decoded, and fails as a decoding error with the snippet, not a crash")
    func unlabelledHTML() async throws {
        let html = "<!DOCTYPE html><html><body>" + String(repeating: "Maintenance ", count: 100) + "</body></html>"
        let (client, _) = makeClient { _ in .data(Data(html.utf8)) }
        let error = await networkError { _ = try await client.send(Request<[Film]>(path: "/films")) }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.snippet.hasPrefix("<!DOCTYPE html>"))
        #expect(failure.snippet.count <= DecodingFailure.snippetLength + 1)
    }

    @Test("binary garbage is a decoding error")
    func binaryGarbage() async throws {
        let (client, _) = makeClient { _ in .data(Data([0xFF, 0xFE, 0x00, 0x81])) }
        let error = await networkError { _ = try await client.send(Request<Film>(path: "/films/1")) }
        guard case .decodingFailed = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
    }

    @Test("204, 205 and HEAD answers decode to Void, EmptyResponse, nil, empty Data and empty String")
    func emptyBodies() async throws {
        let (client, _) = makeClient { request in
            request.method == .head ? .data(Data("ignored".utf8), headers: ["Content-Length": "7"]) : .status(.noContent)
        }
        try await client.send(Request<Void>(path: "/x", method: .delete))
        #expect(try await client.send(Request<EmptyResponse>(path: "/x")) == EmptyResponse())
        #expect(try await client.send(Request<Film?>(path: "/x")) == nil)
        #expect(try await client.send(Request<Data>(path: "/x")) == Data())
        #expect(try await client.send(Request<String>(path: "/x")) == "")
        #expect(try await client.send(Request<Data>(path: "/x", method: .head)) == Data())

        let (resetClient, _) = makeClient { _ in .status(.init(code: 205)) }
        try await resetClient.send(Request<Void>(path: "/x", method: .post))
    }

    @Test("an empty body where a value was expected is a decoding error")
    func emptyWhereValueExpected() async throws {
        let (client, _) = makeClient { _ in .status(.noContent) }
        let error = await networkError { _ = try await client.send(Request<Film>(path: "/x")) }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.reason.contains("no body"))
    }

    @Test("Void ignores a body the server sends anyway")
    func voidIgnoresBody() async throws {
        let (client, _) = makeClient { _ in .json(#"{"deleted":true}"#) }
        await #expect(throws: Never.self) { try await client.send(Request<Void>(path: "/x", method: .delete)) }
    }

    @Test("raw Data and String answers are returned as they are")
    func rawAnswers() async throws {
        let (client, _) = makeClient { _ in .text("héllo, wörld") }
        #expect(try await client.send(Request<String>(path: "/x")) == "héllo, wörld")
        #expect(try await client.send(Request<Data>(path: "/x")) == Data("héllo, wörld".utf8))
    }

    @Test("String of invalid UTF-8 is a decoding error")
    func invalidUTF8() async throws {
        let (client, _) = makeClient { _ in .data(Data([0xC3, 0x28])) }
        let error = await networkError { _ = try await client.send(Request<String>(path: "/x")) }
        guard case .decodingFailed = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
    }

    @Test("Response<T> carries status, headers, raw data and timing")
    func responseDetails() async throws {
        let (client, _) = makeClient { _ in .json(#"["a"]"#, status: .created, headers: ["ETag": "\"v1\""]) }
        let response = try await client.response(Request<[String]>(path: "/x", method: .post))
        #expect(response.value == ["a"])
        #expect(response.status == .created)
        #expect(response.headerFields[.eTag] == "\"v1\"")
        #expect(response.data == Data(#"["a"]"#.utf8))
        #expect(response.duration >= .zero)
        #expect(response.request.description == "POST https://api.example.com/v1/x")
        #expect(response.map(\.count).value == 1)
    }

    @Test("a custom decoder from the configuration is used")
    func customDecoder() async throws {
        struct Todo: Decodable, Sendable { let userId: Int }
        let transport = StubTransport { _ in .json(#"{"userId":3}"#) }
        let client = LiveAPIClient(configuration: .init(baseURL: testBaseURL, transport: transport, decoder: JSONDecoder()))
        #expect(try await client.send(Request<Todo>(path: "/todos/1")).userId == 3)
    }
}
