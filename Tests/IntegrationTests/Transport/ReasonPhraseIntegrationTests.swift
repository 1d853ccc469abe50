import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// A status reads the same over every transport: URLSession does not report the server's reason
/// phrase, so the standard one stands in.
@Suite("Reason phrases against DemoAPI", .timeLimit(.minutes(3)))
struct ReasonPhraseIntegrationTests {
    @Test("a 404 reads '404 Not Found' over both transports, in the response and in the error", arguments: TransportKind.allCases)
    func notFound(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let error = await networkError { _ = try await client.send(Request<Data>(path: "/films/no-such-film")) }
            guard case .notFound(let failure)? = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
            #expect(failure.response.status.reasonPhrase == "Not Found")
            #expect(failure.description.hasSuffix("-> 404 Not Found"))
            let ok = try await client.response(Request<Data>(path: "/films"))
            #expect(ok.status.reasonPhrase == "OK")
        }
    }
}
