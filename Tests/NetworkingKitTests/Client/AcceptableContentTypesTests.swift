import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Which answers a call decodes, by their `Content-Type` (``RequestOptions/acceptableContentTypes``).
@Suite("Acceptable content types")
struct AcceptableContentTypesTests {
    struct Item: Codable, Sendable, Equatable {
        let id: Int
    }

    /// The outcome of decoding `{"id":1}` labelled `contentType`, with `accepted` set on the request.
    static func outcome(_ contentType: String?, accepted: [String]? = nil, decoder: (any ResponseDecoder)? = nil) async -> NetworkError? {
        let (client, _) = makeClient { _ in
            StubResponse(headers: contentType.map { ["Content-Type": $0] } ?? [:], body: HTTPBody(#"{"id":1}"#))
        }
        var options = RequestOptions()
        options.acceptableContentTypes = accepted
        options.decoder = decoder
        return await networkError { _ = try await client.send(Request<Item>(path: "/item", options: options)) }
    }

    static let jsonDefaults: [(String?, Bool)] = [
        ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON", true),
        ("application/problem+json", true), ("application/vnd.api+json", true), (nil, true),
        ("text/html", false), ("text/plain", false), ("application/xml", false), ("application/jsonp", false),
        ("json", false), ("", true), (" ; charset=utf-8", true),
    ]

    @Test("JSON decoders read application/json and +json, with any parameters, and unlabelled answers", arguments: jsonDefaults)
    func jsonDefault(contentType: String?, accepted: Bool) async {
        let error = await Self.outcome(contentType)
        if accepted {
            #expect(error == nil)
        } else {
            guard case .unacceptableContentType? = error else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("an endpoint says otherwise: type/*, */*, an exact type")
    func perEndpoint() async {
        #expect(await Self.outcome("text/json", accepted: ["application/json", "text/json"]) == nil)
        #expect(await Self.outcome("text/anything", accepted: ["text/*"]) == nil)
        #expect(await Self.outcome("image/png", accepted: ["*/*"]) == nil)
        #expect(await Self.outcome("application/json", accepted: [" application/json; charset=utf-8"]) == nil)
        let error = await Self.outcome("application/json", accepted: ["application/cbor"])
        guard case .unacceptableContentType(_, let accepted)? = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(accepted == ["application/cbor"])
    }

    /// A decoder of another format, which says nothing about media types.
    struct AnyFormatDecoder: ResponseDecoder {
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try JSONDecoder().decode(type, from: data)
        }
    }

    @Test("a decoder that names no media types checks none; JSONDecoder names JSON's")
    func decoders() async {
        #expect(await Self.outcome("text/html", decoder: AnyFormatDecoder()) == nil)
        #expect(JSONDecoder().acceptableContentTypes == ["application/json", "+json"])
        guard case .unacceptableContentType? = await Self.outcome("text/html", decoder: JSONDecoder()) else {
            Issue.record("JSONDecoder accepted text/html")
            return
        }
    }

    /// A decoder of XML, which says so.
    struct XMLishDecoder: ResponseDecoder {
        var acceptableContentTypes: [String]? { ["application/xml", "+xml"] }
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try JSONDecoder().decode(type, from: data)
        }
    }

    @Test("the Accept header follows what the decoder reads: JSON by default, XML for an XML decoder")
    func acceptHeader() async throws {
        let (client, transport) = makeClient { _ in
            StubResponse(headers: ["Content-Type": "application/xml"], body: HTTPBody(#"{"id":1}"#))
        }
        var options = RequestOptions()
        options.decoder = XMLishDecoder()
        _ = try? await client.send(Request<Item>(path: "/json"))
        _ = try await client.send(Request<Item>(path: "/xml", options: options))
        #expect(transport.requests.map { $0.header("Accept") } == ["application/json", "application/xml"])
    }

    @Test("Data, String and no value read any type")
    func rawTypes() async throws {
        let (client, _) = makeClient { _ in .text("<html></html>", contentType: "text/html") }
        let data: Data = try await client.send(Request(path: "/page"))
        let text: String = try await client.send(Request(path: "/page"))
        try await client.send(Request<Void>(path: "/page"))
        #expect(data.count == 13 && text == "<html></html>")
    }

    @Test("with validatesStatus off, a 500 HTML page decoded as a model fails naming its type")
    func unvalidatedStatus() async {
        let (client, _) = makeClient { _ in .text("<h1>Bad gateway</h1>", status: .badGateway, contentType: "text/html") }
        var options = RequestOptions()
        options.validatesStatus = false
        let error = await networkError { _ = try await client.send(Request<Item>(path: "/item", options: options)) }
        guard case .unacceptableContentType(let failure, _)? = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(failure.status == .badGateway)
    }
}
