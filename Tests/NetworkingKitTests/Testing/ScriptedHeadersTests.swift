import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Scripted headers: one vocabulary for every testing helper")
struct ScriptedHeadersTests {
    @Test("StubResponse and MockAPIClient take the same [String: String] headers, and both answers carry them")
    func sameVocabulary() async throws {
        let stub = StubResponse(status: .created, headers: ["Location": "/films/9", "X-Trace": "a"])
        #expect(stub.response.headerFields[.location] == "/films/9")
        #expect(stub.response.headerFields[HTTPField.Name("x-trace")!] == "a")

        let mock = MockAPIClient()
        let request = Request<Data>(path: "/films", method: .post)
        mock.stub(request, answers: [.response(Data(), status: .created, headers: ["Location": "/films/9"])])
        let response = try await mock.response(request)
        #expect(response.headerFields[.location] == "/films/9")
    }

    @Test("a header name that is not a field name stops the test instead of being dropped")
    func invalidNameStops() async {
        await #expect(processExitsWith: .failure) {
            _ = StubResponse(headers: ["Bad Name": "x"])
        }
    }
}
