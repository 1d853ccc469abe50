import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DemoAPI

@Suite("DemoAPI route index")
struct RouteIndexTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("every route the router serves has a line in the index, and every line names a route")
    func indexMatchesRouter() {
        let router = makeDemoRouter()
        let served = Set(router.routes.map { "\($0.path)" })
        let described = Set(RouteIndex.summaries.keys)
        #expect(served.subtracting(described).sorted() == [], "routes without a line in RouteIndex.summaries")
        #expect(described.subtracting(served).sorted() == [], "lines for routes that are not served")
        let lines = RouteIndex.lines(of: router)
        #expect(lines.count == served.count)
        #expect(lines.contains { $0.hasPrefix("GET, POST /todos ") && $0.hasSuffix("POST adds one") })
        #expect(lines.contains { $0.hasPrefix("any method /echo ") })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET / answers the index as text")
    func indexAtRoot() async throws {
        try await withDemoRouter { client, _ in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
            let text = String(buffer: response.body)
            #expect(text.hasPrefix("DemoAPI: the routes of NetworkingKit's demo server.\n"))
            #expect(text.contains("\nGET /films/{id} "))
            #expect(text.contains("\nPOST /upload/multipart "))
        }
    }
}
