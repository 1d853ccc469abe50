import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Request building: headers and bodies")
struct RequestBuildingTests {
    struct Payload: Codable, Sendable, Equatable {
        let filmId: String
        let watchedAt: Date
    }

    @Test("JSON bodies use snake_case keys and ISO 8601 dates, with Content-Type and Accept set")
    func jsonBody() async throws {
        let (client, transport) = makeClient()
        let payload = Payload(filmId: "toy-story", watchedAt: Date(timeIntervalSince1970: 0))
        try await client.send(Request<Void>(path: "/watched", method: .post, body: .json(payload)))
        let sent = try #require(transport.requests.first)
        #expect(sent.method == .post)
        #expect(sent.header("Content-Type") == "application/json")
        let json = try #require(sent.body.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: String] })
        #expect(json == ["film_id": "toy-story", "watched_at": "1970-01-01T00:00:00Z"])
    }

    @Test("a seed-style endpoint's Encodable body is sent as JSON")
    func seedStyleEncodableBody() async throws {
        struct Rate: APIEndpoint {
            var path: String { "/films/1/rating" }
            var method: HTTPMethod { .post }
            var body: (any Encodable)? { ["rating": 5] }
        }
        let (client, transport) = makeClient()
        try await client.request(Rate())
        #expect(transport.requests.first?.bodyText == #"{"rating":5}"#)
        #expect(transport.requests.first?.header("Content-Type") == "application/json")
    }

    @Test("Accept is JSON for decoded types, absent for Data, text for String")
    func acceptHeader() async throws {
        let (client, transport) = makeClient { _ in .json("[]") }
        _ = try await client.send(Request<[String]>(path: "/a"))
        _ = try await client.send(Request<Data>(path: "/b"))
        _ = try await client.send(Request<String>(path: "/c"))
        #expect(transport.requests.map { $0.header("Accept") } == ["application/json", nil, "text/plain, */*;q=0.8"])
    }

    @Test("raw data, text and form bodies carry their own content types")
    func otherBodies() async throws {
        let (client, transport) = makeClient()
        try await client.send(Request<Void>(path: "/raw", method: .put, body: .data(Data([0, 1, 2]))))
        try await client.send(Request<Void>(path: "/text", method: .post, body: .text("héllo")))
        try await client.send(
            Request<Void>(
                path: "/form", method: .post,
                body: .form([
                    URLQueryItem(name: "name", value: "Buzz Lightyear"), URLQueryItem(name: "motto", value: "to infinity & beyond+"),
                    URLQueryItem(name: "tag", value: "a"), URLQueryItem(name: "tag", value: "b"),
                ])))
        let requests = transport.requests
        #expect(requests[0].body == Data([0, 1, 2]))
        #expect(requests[0].header("Content-Type") == "application/octet-stream")
        #expect(requests[1].bodyText == "héllo")
        #expect(requests[1].header("Content-Type") == "text/plain; charset=utf-8")
        #expect(requests[2].bodyText == "name=Buzz+Lightyear&motto=to+infinity+%26+beyond%2B&tag=a&tag=b")
        #expect(requests[2].header("Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test("endpoint headers override the client's default headers of the same name")
    func headerPrecedence() async throws {
        let (client, transport) = makeClient(defaultHeaders: ["X-App": "demo", "accept": "text/csv"])
        try await client.request(TestEndpoint(path: "/x", headers: ["X-APP": "override", "X-Trace": "1"]))
        let sent = try #require(transport.requests.first)
        #expect(sent.request.headerFields[values: HTTPField.Name("x-app")!] == ["override"])
        #expect(sent.header("X-Trace") == "1")
        #expect(sent.header("Accept") == "text/csv")
    }

    @Test(
        "header injection is refused before anything is sent",
        arguments: [
            ["X-Name": "value\r\nX-Injected: yes"], ["X-Name": "line\nbreak"], ["X-Name": "nul\u{0}byte"],
            ["Bad Name": "v"], ["X-Name\r\n": "v"], ["": "v"],
        ])
    func headerInjectionRefused(headers: [String: String]) async throws {
        let (client, transport) = makeClient()
        let error = await networkError { try await client.request(TestEndpoint(path: "/x", headers: headers)) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("header"))
        #expect(transport.requests.isEmpty)
    }

    @Test("an illegal default header fails every call before anything is sent")
    func illegalDefaultHeader() async throws {
        let (client, transport) = makeClient(defaultHeaders: ["X-App": "demo\r\nX-Injected: 1"])
        for _ in 0..<2 {
            let error = await networkError { try await client.request(TestEndpoint(path: "/x")) }
            guard case .invalidRequest(let reason) = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("X-App"))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("a body that fails to encode is a typed error and nothing is sent")
    func encodingFailure() async throws {
        struct Broken: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "cannot encode"))
            }
        }
        let (client, transport) = makeClient()
        let error = await networkError { try await client.send(Request<Void>(path: "/x", method: .post, body: .json(Broken()))) }
        guard case .encodingFailed(let reason, let underlying) = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("Broken"))
        #expect(underlying is EncodingError)
        #expect(transport.requests.isEmpty)
        #expect(error?.localizedDescription.contains("could not prepare") == true)
    }

    @Test("a non-finite number in a JSON body is an encoding error, not a crash")
    func nonFiniteNumber() async throws {
        let (client, transport) = makeClient()
        let error = await networkError { try await client.send(Request<Void>(path: "/x", method: .post, body: .json(["v": Double.nan]))) }
        guard case .encodingFailed = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.isEmpty)
    }
}
