import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// An HTML page where JSON was expected, over every transport: the error names the type received.
@Suite("Content types over every transport", .timeLimit(.minutes(5)))
struct ContentTypeConformanceTests {
    struct Film: Decodable, Sendable {
        let id: String
    }

    @Test("a 200 HTML page decoded as a model fails with unacceptableContentType naming text/html", arguments: TransportKind.allCases)
    func htmlPage(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let error = await networkError { _ = try await client.send(Request<[Film]>(path: "/html")) }
            guard case .unacceptableContentType(let failure, let accepted)? = error else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            #expect(failure.response.headerFields[.contentType] == "text/html; charset=utf-8")
            #expect(accepted == ["application/json", "+json"])
            #expect(String(decoding: failure.body, as: UTF8.self).contains("Sign in to the network"))
            // The same page read as text is fine.
            let page: String = try await client.send(Request(path: "/html"))
            #expect(page.hasPrefix("<!DOCTYPE html>"))
        }
    }
}
