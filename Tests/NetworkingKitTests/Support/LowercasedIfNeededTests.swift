import Testing

@testable import NetworkingKit

@Suite("lowercasedIfNeeded")
struct LowercasedIfNeededTests {
    @Test(
        "is lowercased() for every text, with or without capitals, short or long, ASCII or not",
        arguments: [
            "", "https", "HTTPS", "api.example.com", "API.Example.COM", "a-very-long-host-name.example.com",
            "A-VERY-LONG-HOST-NAME.EXAMPLE.COM", "bücher.example", "BÜCHER.example", "ÉCOLE", "straße", "@[\\]^_`{",
        ])
    func sameAsLowercased(text: String) {
        #expect(text.lowercasedIfNeeded == text.lowercased())
    }
}
