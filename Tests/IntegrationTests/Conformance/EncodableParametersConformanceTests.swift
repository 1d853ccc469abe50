import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// `Encodable` query parameters and form bodies as DemoAPI's `/echo` receives them, over every transport.
@Suite("Encodable parameters over every transport", .timeLimit(.minutes(5)))
struct EncodableParametersConformanceTests {
    struct Search: Encodable, Sendable {
        var title = "Toy Story & co/+"
        var years = [1995, 1999]
        var filter = Filter()
    }

    struct Filter: Encodable, Sendable {
        var shorts = false
    }

    @Test("a query and a form from the same value arrive escaped, whole and in order", arguments: TransportKind.allCases)
    func queryAndForm(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let query: Echo = try await client.send(Request(path: "/echo", query: try URLQueryEncoder(arrays: .brackets).encode(Search())))
            #expect(query.query == "filter%5Bshorts%5D=false&title=Toy%20Story%20%26%20co%2F%2B&years%5B%5D=1995&years%5B%5D=1999")

            let form: Echo = try await client.send(Request(path: "/echo", method: .post, body: .form(Search())))
            #expect(form.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(form.body == "filter%5Bshorts%5D=false&title=Toy+Story+%26+co%2F%2B&years=1995&years=1999")
        }
    }
}
