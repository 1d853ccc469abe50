import Foundation
import NetworkingKitTesting
import Testing

@testable import NetworkingKit

/// `Encodable` values as query parameters and form bodies.
@Suite("URL query encoder")
struct URLQueryEncoderTests {
    struct Filter: Encodable, Sendable {
        var director: String? = "Pete Docter"
        var years: [Int] = [2009, 2015]
        var includeShorts = false
        var imageURL: URL? = nil
        var since: Date? = nil
        var rating: Rating? = nil
    }

    struct Rating: Encodable, Sendable {
        var min: Double
        var max: Double
    }

    /// `value` encoded by `encoder`, as `name=value` pairs joined with `&` (not escaped).
    static func pairs(_ value: some Encodable, _ encoder: URLQueryEncoder = URLQueryEncoder()) throws -> String {
        try encoder.encode(value).map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    }

    @Test("by default: snake_case names in order, arrays by repeated names, nil left out")
    func defaults() throws {
        #expect(try Self.pairs(Filter()) == "director=Pete Docter&include_shorts=false&years=2009&years=2015")
        #expect(try Self.pairs(Filter(director: nil, years: [])) == "include_shorts=false")
    }

    static let arrayCases: [(URLQueryEncoder.ArrayEncoding, String)] = [
        (.repeatedName, "years=2009&years=2015"), (.brackets, "years[]=2009&years[]=2015"),
        (.indexed, "years[0]=2009&years[1]=2015"), (.commaSeparated, "years=2009,2015"),
    ]

    @Test("arrays", arguments: arrayCases)
    func arrays(encoding: URLQueryEncoder.ArrayEncoding, expected: String) throws {
        struct Years: Encodable { var years = [2009, 2015] }
        #expect(try Self.pairs(Years(), URLQueryEncoder(arrays: encoding)) == expected)
    }

    @Test("booleans, dates, URLs, data, decimals and nested values")
    func scalarsAndNesting() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        var filter = Filter(director: nil, years: [], includeShorts: true, imageURL: URL(string: "https://x.example/a?b=c"), since: date)
        filter.rating = Rating(min: 3.5, max: 5)
        #expect(
            try Self.pairs(filter)
                == "image_url=https://x.example/a?b=c&include_shorts=true&rating[max]=5&rating[min]=3.5&since=2023-11-14T22:13:20Z")
        let numeric = URLQueryEncoder(bools: .numeric, dates: .secondsSince1970, nested: .dots)
        #expect(
            try Self.pairs(filter, numeric)
                == "image_url=https://x.example/a?b=c&include_shorts=1&rating.max=5&rating.min=3.5&since=1700000000")
        let custom = URLQueryEncoder(dates: .custom { _ in "yesterday" }, keys: .useDefaultKeys)
        #expect(try Self.pairs(filter, custom).contains("since=yesterday"))
        #expect(try Self.pairs(filter, custom).contains("includeShorts=true"))
        let millis = URLQueryEncoder(dates: .millisecondsSince1970)
        #expect(try Self.pairs(["at": date], millis) == "at=1700000000000")
        struct Blob: Encodable { var data = Data([0, 1, 2]); var amount = Decimal(string: "12.50")! }
        #expect(try Self.pairs(Blob()) == "amount=12.5&data=AAEC")
    }

    @Test("every integer width and Float, alone and in arrays, as text")
    func numbers() throws {
        struct Widths: Encodable {
            var a: Int8 = -8
            var b: UInt16 = 16
            var c: Int32 = -32
            var d: UInt64 = 64
            var e: Float = 1.5
            var f: [Int8] = [1, 2]
            var g: [Float] = [0.5]
            var h: [UInt] = [7]
        }
        #expect(try Self.pairs(Widths()) == "a=-8&b=16&c=-32&d=64&e=1.5&f=1&f=2&g=0.5&h=7")
        struct Tenth: Encodable { var f: Float = 0.1; var list: [Float] = [0.1, 3] }
        let tenth = try Self.pairs(Tenth())
        #expect(tenth == "f=0.1&list=0.1&list=3", "\(tenth)")
    }

    @Test("snake_case splits words as JSONEncoder does")
    func snakeCase() {
        let encoder = URLQueryEncoder()
        #expect(encoder.name(for: "imageURL") == "image_url")
        #expect(encoder.name(for: "myURLValue") == "my_url_value")
        #expect(encoder.name(for: "version2Beta") == "version2_beta")
        #expect(encoder.name(for: "already_snake") == "already_snake")
        #expect(encoder.name(for: "id") == "id")
    }

    @Test("what cannot be a query fails with EncodingError: a bare value, nested arrays comma-separated, infinity")
    func failures() {
        #expect(throws: EncodingError.self) { try URLQueryEncoder().encode(42) }
        #expect(throws: EncodingError.self) { try URLQueryEncoder().encode(["a", "b"]) }
        struct Nested: Encodable { var pairs = [[1, 2]] }
        #expect(throws: EncodingError.self) { try URLQueryEncoder(arrays: .commaSeparated).encode(Nested()) }
        struct Infinite: Encodable { var x = Double.infinity }
        #expect(throws: EncodingError.self) { try URLQueryEncoder().encode(Infinite()) }
    }

    @Test("on a request: escaped strictly, as every query item is; as a form body: the same pairs, form-encoded")
    func onTheWire() async throws {
        let (client, transport) = makeClient()
        let filter = Filter(director: "Lee Unkrich & Co/+", years: [2010])
        try await client.send(Request<Void>(path: "/films", query: try URLQueryEncoder().encode(filter)))
        #expect(
            transport.requests.first?.url?.absoluteString
                == "https://api.example.com/v1/films?director=Lee%20Unkrich%20%26%20Co%2F%2B&include_shorts=false&years=2010")

        try await client.send(
            Request<Void>(path: "/search", method: .post, body: .form(filter, encoder: URLQueryEncoder(arrays: .brackets))))
        let form = transport.requests.last
        #expect(form?.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(form?.bodyText == "director=Lee+Unkrich+%26+Co%2F%2B&include_shorts=false&years%5B%5D=2010")
    }

    @Test("a form value that cannot be encoded fails the call with encodingFailed, before anything is sent")
    func formFailure() async {
        struct Infinite: Encodable, Sendable { var x = Double.infinity }
        let (client, transport) = makeClient()
        let error = await networkError { try await client.send(Request<Void>(path: "/x", method: .post, body: .form(Infinite()))) }
        guard case .encodingFailed? = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.isEmpty)
    }
}
