import HTTPTypes
import Testing

@_spi(Transport) @testable import NetworkingKit

@Suite("A received field name")
struct ReceivedFieldNameTests {
    @Test(
        "is the same name as HTTPField.Name(_:) makes, spelt as sent, whether or not the table knows it",
        arguments: [
            "Content-Type", "content-type", "CONTENT-TYPE", "Content-type", "ETag", "etag", "Date", "X-Cache", "x-cache",
            "Access-Control-Allow-Credentials", "X-Custom-Header", "x", "Set-Cookie",
        ])
    func sameAsSlowPath(spelling: String) throws {
        let received = try #require(HTTPField.Name.received(spelling))
        let made = try #require(HTTPField.Name(spelling))
        #expect(received == made)
        #expect(received.rawName == spelling)
        #expect(received.canonicalName == spelling.lowercased())
    }

    @Test("is nil for what is not a token", arguments: ["", "Content Type", "Content-Type:", "Ünïcode", "a\u{0}b", "\r\n"])
    func notAToken(spelling: String) {
        #expect(HTTPField.Name.received(spelling) == nil)
    }

    @Test("finds the table's names by name: a longer or shorter name is not mistaken for one")
    func lengths() throws {
        #expect(try #require(HTTPField.Name.received("Content-Types")).canonicalName == "content-types")
        #expect(try #require(HTTPField.Name.received("Content-Typ")).canonicalName == "content-typ")
        let longest = String(repeating: "A", count: 200)
        #expect(try #require(HTTPField.Name.received(longest)).canonicalName == longest.lowercased())
    }
}
