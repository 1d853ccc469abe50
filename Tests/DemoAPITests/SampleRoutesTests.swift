import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

/// The routes the samples call that mirror an API of the real world: a live feed, a todo export
/// as JSON lines, a film's trailer to download, and OAuth's form-encoded password login.
@Suite("DemoAPI routes the samples call")
struct SampleRoutesTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /todos/export streams every todo as one JSON line each")
    func todosExport() async throws {
        try await withDemoRouter { client, _ in
            let response = try await client.execute(uri: "/todos/export", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/x-ndjson")
            let lines = String(buffer: response.body).split(separator: "\n")
            #expect(lines.count == 200)
            let first = try JSONDecoder().decode(JSONValue.self, from: Data(lines[0].utf8))
            #expect(first["id"] == .number(1))
            #expect(first["userId"] == .number(1))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /films/{id}/trailer is a 4 MiB file with validators and ranges; an unknown film is 404")
    func trailer() async throws {
        try await withDemoRouter { client, _ in
            let whole = try await client.execute(uri: "/films/up/trailer", method: .get)
            #expect(whole.status == .ok)
            #expect(whole.body.readableBytes == 4 << 20)
            let etag = try #require(whole.headers[.eTag])
            let other = try await client.execute(uri: "/films/coco/trailer", method: .get)
            #expect(other.headers[.eTag] != etag, "each film's trailer is a file of its own")

            let part = try await client.execute(uri: "/films/up/trailer", method: .get, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(Array(part.body.readableBytesView) == Array(whole.body.readableBytesView.dropFirst(100).prefix(100)))

            let missing = try await client.execute(uri: "/films/cars-4/trailer", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /feed is the /events stream")
    func feed() async throws {
        try await withDemoRouter { client, _ in
            let response = try await client.execute(uri: "/feed?count=2", method: .get)
            #expect(response.headers[.contentType] == "text/event-stream")
            #expect(String(buffer: response.body).contains("id: 2\nevent: tick\ndata: {\"n\":2}\n\n"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("POST /auth/login takes OAuth's form-encoded password grant as well as JSON; a malformed form is a 400")
    func formLogin() async throws {
        try await withDemoRouter { client, _ in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let good = try await client.execute(
                uri: "/auth/login", method: .post, headers: form,
                body: ByteBuffer(string: "grant_type=password&username=woody&password=an%64y"))
            #expect(good.status == .ok)
            #expect(good.json["token_type"] == .string("Bearer"))

            let wrong = try await client.execute(
                uri: "/auth/login", method: .post, headers: form, body: ByteBuffer(string: "username=woody&password=buzz"))
            #expect(wrong.status == .unauthorized)

            let malformed = try await client.execute(
                uri: "/auth/login", method: .post, headers: form, body: ByteBuffer(string: "username=wo%zzdy&password=andy"))
            #expect(malformed.status == .badRequest)
        }
    }
}
