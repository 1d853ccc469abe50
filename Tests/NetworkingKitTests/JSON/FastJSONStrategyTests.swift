import ExampleServices
import Foundation
import NetworkingKit
import Testing

/// Every strategy `JSONDecoder` has, and the client's default decoder, against `JSONDecoder`.
@Suite("FastJSONDecoder: strategies, containers and models against JSONDecoder")
struct FastJSONStrategyTests {
    struct Stamped: Decodable, Equatable {
        let at: Date
        let until: Date?
    }

    static let timestamps = [
        "2026-11-28T09:30:00Z", "2026-11-28T09:30:00.250Z", "2026-11-28T09:30:00.1+01:00", "2026-11-28T09:30:00-05:30",
        "2026-11-28T09:30:00.123456789Z", "2026-11-28T09:30:00.1234567891Z", "1970-01-01T00:00:00Z",
        "2000-02-29T23:59:59.999Z", "2001-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-31T00:00:00Z",
        "2026-11-28T24:00:00Z", "2026-11-28T23:60:00Z", "2026-11-28T23:59:60Z", "2026-11-28t09:30:00z",
        "2026-11-28 09:30:00Z", "2026-11-28T09:30:00", "2026-11-28T09:30:00+0100", "2026-11-28T09:30:00+01",
        "20261128T093000Z", "2026-1-5T9:3:0Z", "12026-11-28T09:30:00Z", "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z", "2026-11-28T09:30:00.Z", "2026-11-28T09:30:00Zjunk", "", "now",
        "2026-11-28", "2026-11-28T09:30Z", "1899-12-31T23:59:59Z", "2026-11-28T09:30:00+14:00",
        "2026-11-28T09:30:00-23:59", "2026-11-28T09:30:00+24:00",
    ]

    static func document(_ timestamp: String) -> Data {
        Data(#"{"at":"\#(timestamp)","until":null}"#.utf8)
    }

    @Test("ISO 8601 dates: every form JSONDecoder's .iso8601 reads, and those it refuses, decode the same")
    func iso8601() {
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        for timestamp in Self.timestamps {
            DecoderComparison.expectSame(Stamped.self, Self.document(timestamp), foundation: foundation)
        }
        // Generated: every field at random, fractions of every length, offsets.
        var random = SeededGenerator(seed: 8601)
        for _ in 0..<3_000 {
            var text = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", Int.random(in: 1...2500, using: &random),
                Int.random(in: 1...12, using: &random), Int.random(in: 1...31, using: &random),
                Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random),
                Int.random(in: 0...59, using: &random))
            if Bool.random(using: &random) {
                text += "." + String(Int.random(in: 0...999_999_999, using: &random)).prefix(Int.random(in: 1...9, using: &random))
            }
            text +=
                Bool.random(using: &random)
                ? "Z"
                : String(
                    format: "%@%02d:%02d", Bool.random(using: &random) ? "+" : "-", Int.random(in: 0...23, using: &random),
                    Int.random(in: 0...59, using: &random))
            DecoderComparison.expectSame(Stamped.self, Self.document(text), foundation: foundation)
        }
    }

    @Test("the client's default decoder reads every timestamp as the JSONDecoder it replaces did")
    func defaultDecoderMatchesTheOneItReplaces() {
        // The default decoder until this version: snake_case keys, and ISO 8601 with or without
        // fractional seconds through a custom closure.
        let replaced = JSONDecoder()
        replaced.keyDecodingStrategy = .convertFromSnakeCase
        replaced.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
        }
        let current = LiveAPIClient.Configuration.defaultDecoder()
        for timestamp in Self.timestamps + ["2026-11-28T09:30:00.5-00:00"] {
            let data = Self.document(timestamp)
            let expected = DecoderComparison.outcome(Stamped.self, data, { try replaced.decode($0, from: $1) }) { "\($0)" }
            let actual = DecoderComparison.outcome(Stamped.self, data, { try current.decode($0, from: $1) }) { "\($0)" }
            #expect(actual == expected, "\(timestamp)")
        }
    }

    @Test("numeric and deferred date strategies, and a custom one that reads the decoder's path")
    func otherDateStrategies() {
        let strategies: [JSONDecoder.DateDecodingStrategy] = [
            .deferredToDate, .secondsSince1970, .millisecondsSince1970,
            .custom { decoder in
                let container = try decoder.singleValueContainer()
                let seconds = try container.decode(Double.self)
                guard seconds >= 0 else {
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "negative at \(decoder.codingPath.map(\.stringValue))")
                }
                return Date(timeIntervalSince1970: seconds)
            },
        ]
        let documents = [
            #"{"at":0,"until":null}"#, #"{"at":1732786200.5,"until":12}"#, #"{"at":-1,"until":null}"#,
            #"{"at":"x","until":null}"#, #"{"at":null}"#, #"{"until":1}"#, #"{"at":1e400}"#, #"{"at":[1]}"#,
            #"{"at":1,"until":"2026"}"#,
        ]
        for strategy in strategies {
            let foundation = JSONDecoder()
            foundation.dateDecodingStrategy = strategy
            for document in documents {
                DecoderComparison.expectSame(Stamped.self, Data(document.utf8), foundation: foundation)
                DecoderComparison.expectSame(
                    [Date].self, Data("[\(document.dropFirst(6).prefix(while: { $0 != "," && $0 != "}" }))]".utf8), foundation: foundation)
            }
        }
    }

    struct Blob: Decodable, Equatable {
        let data: Data
        let more: [Data]?
    }

    @Test("data strategies: base64 (valid, invalid, escaped), deferred to Data, and custom")
    func dataStrategies() {
        let documents = [
            #"{"data":"aGVsbG8="}"#, #"{"data":"aGVsbG8"}"#, #"{"data":"aGVs bG8="}"#, #"{"data":"aGVsbG8=\n"}"#,
            #"{"data":"a\u0047VsbG8="}"#, #"{"data":""}"#, #"{"data":"!!!!"}"#, #"{"data":12}"#, #"{"data":null}"#,
            #"{"data":[104,105]}"#, #"{"data":[104,256]}"#, #"{"data":"aGk=","more":["aGk=","aGk"]}"#,
        ]
        let strategies: [JSONDecoder.DataDecodingStrategy] = [
            .base64, .deferredToData,
            .custom { decoder in Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed()) },
        ]
        for strategy in strategies {
            let foundation = JSONDecoder()
            foundation.dataDecodingStrategy = strategy
            for document in documents { DecoderComparison.expectSame(Blob.self, Data(document.utf8), foundation: foundation) }
        }
    }

    @Test("non-conforming floats from strings, plain or escaped, and URLs")
    func nonConformingFloatsAndURLs() {
        let foundation = JSONDecoder()
        foundation.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        for text in [#"["inf","-inf","nan",1.5]"#, #"["\u0069nf"]"#, #"["Inf"]"#, #"[null]"#, #"["nan ","x"]"#] {
            DecoderComparison.expectSame([Double].self, Data(text.utf8), foundation: foundation) { $0.map(\.bitPattern).description }
            DecoderComparison.expectSame([Float].self, Data(text.utf8), foundation: foundation) { $0.map(\.bitPattern).description }
        }
        for text in [#"["https://example.com/a?b=c"]"#, #"["not a url with spaces"]"#, #"[""]"#, #"[1]"#, #"[null]"#] {
            DecoderComparison.expectSame([URL].self, Data(text.utf8))
            DecoderComparison.expectSame([URL?].self, Data(text.utf8))
        }
    }

    @Test("userInfo reaches every init(from:)")
    func userInfo() {
        struct ReadsUserInfo: Decodable, Equatable {
            let seen: String
            init(from decoder: any Decoder) throws {
                seen = "\(decoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] ?? "none")"
            }
        }
        let foundation = JSONDecoder()
        foundation.userInfo[CodingUserInfoKey(rawValue: "tenant")!] = "blue"
        DecoderComparison.expectSame([ReadsUserInfo].self, Data("[1,{},null]".utf8), foundation: foundation)
    }

    @Test("every container operation gives the same values, paths and errors (a log of each step)")
    func containerWorkout() {
        let documents = [
            #"{"a":1,"b":[1,null,"x",{"c":2}],"n":null,"super":{"s":1},"o":{"p":[true]}}"#,
            #"{"a":"1","b":[],"o":{}}"#, #"{"a":1}"#, #"[]"#, #"null"#, #"{"b":{"c":1},"o":[1]}"#,
            #"{"a":1,"b":[1,2,3,4,5,6,7,8],"super":null,"o":{"p":null}}"#,
        ]
        // The log is long enough to mean something: every step ran.
        let log = try? FastJSONDecoder().decode(ContainerWorkout.self, from: Data(documents[0].utf8)).log
        #expect((log?.count ?? 0) > 30)
        #expect(log?.contains("super = Optional(\"super#-1 1\")") == true)
        for document in documents {
            for foundation in DecoderComparison.keyStrategies() {
                DecoderComparison.expectSame(ContainerWorkout.self, Data(document.utf8), foundation: foundation) {
                    $0.log.joined(separator: "\n")
                }
            }
        }
    }

    @Test("the library's and the examples' models decode the same, whole and with each member broken")
    func models() throws {
        let encoder = LiveAPIClient.Configuration.defaultEncoder()
        let decoder = LiveAPIClient.Configuration.defaultDecoder()
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        foundation.dateDecodingStrategy = .iso8601
        #expect(decoder.keyDecodingStrategy.isSnakeCase)
        func check<T: Decodable>(_ type: T.Type, _ data: Data) throws {
            DecoderComparison.expectSame(T.self, data, foundation: foundation)
            // Each member in turn: removed, null, of another type.
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
            for key in object.keys {
                for replacement in [nil, NSNull(), "text", 12, [1], ["k": 1]] as [Any?] {
                    var broken = object
                    broken[key] = replacement
                    DecoderComparison.expectSame(T.self, try JSONSerialization.data(withJSONObject: broken), foundation: foundation)
                }
            }
        }
        func check<T: Codable>(_ value: T) throws { try check(T.self, try encoder.encode(value)) }
        let film = PixarFilm(
            id: "toy-story", title: "Toy Story", releaseYear: 1995, releaseDate: Date(timeIntervalSince1970: 816_912_000),
            studio: "Pixar", synopsis: "A cowboy doll is threatened by a new spaceman toy.")
        let character = PixarCharacter(id: "woody", name: "Woody", filmId: "toy-story", voiceActor: "Tom Hanks")
        try check(TodoDTO(id: 7, userId: 2, title: "Buy the groceries", completed: false))
        try check(TodoPatch(title: "Call", completed: true))
        try check(film)
        try check(character)
        try check(SearchResults(films: [film], characters: [character]))
        try check(FilmRating(rating: 5, comment: "Wonderful"))
        try check(RatingReceipt(filmId: "toy-story", rating: 5, averageRating: 4.5, ratingsCount: 12))
        try check(AuthToken(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_800_000_000)))
        try check(
            APIErrorBody.self,
            Data(#"{"message":"Title is required","code":"validation","field_errors":[{"field":"title","message":"missing"}]}"#.utf8))
        try check(APIErrorBody.self, Data(#"{"error":"nope","errors":{"title":["missing"]}}"#.utf8))
        try check(
            PaginatedResponse<TodoDTO>.self,
            Data(#"{"data":[{"id":1,"user_id":1,"title":"a","completed":true}],"page":1,"total_pages":4,"total_count":70}"#.utf8))
    }
}

/// An `init(from:)` that keeps its decoder and containers: they must still read the document
/// after `decode` returns (the decoder then keeps its own copy of the bytes).
final class KeepsItsDecoder: Decodable, @unchecked Sendable {
    let decoder: any Decoder
    let container: KeyedDecodingContainer<AnyCodingKey>

    init(from decoder: any Decoder) throws {
        self.decoder = decoder
        container = try decoder.container(keyedBy: AnyCodingKey.self)
    }
}

@Suite("FastJSONDecoder: decoders kept past decode")
struct FastJSONKeptDecoderTests {
    @Test("a decoder and a container kept by init(from:) read the bytes after decode returns")
    func keptDecoder() throws {
        var bytes = Data(#"{"name":"Woody","super":{"name":"Buzz"}}"#.utf8)
        let kept = try FastJSONDecoder().decode(KeepsItsDecoder.self, from: bytes)
        let superDecoder = try kept.container.superDecoder()
        // The caller's buffer changes; what was decoded from it does not.
        bytes.replaceSubrange(0..<bytes.count, with: Data(repeating: 0x20, count: bytes.count))
        #expect(try kept.container.decode(String.self, forKey: AnyCodingKey(stringValue: "name")) == "Woody")
        #expect(
            try superDecoder.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: AnyCodingKey(stringValue: "name"))
                == "Buzz")
    }
}

extension JSONDecoder.KeyDecodingStrategy {
    fileprivate var isSnakeCase: Bool {
        if case .convertFromSnakeCase = self { true } else { false }
    }
}

/// Exercises every container operation and records what each returned or threw, with the coding
/// paths it reported: two decoders agree when the logs are equal.
struct ContainerWorkout: Decodable {
    var log: [String] = []

    enum Keys: String, CodingKey {
        case a, b, c, n, o, p, s, missing
        case `super`
    }

    init(from decoder: any Decoder) throws {
        func note(_ label: String, _ body: () throws -> Any?) {
            do {
                log.append("\(label) = \(String(describing: try body()))")
            } catch let error as DecodingError {
                log.append("\(label) ! \(DecoderComparison.describeError(error))")
            } catch {
                log.append("\(label) ! \(error)")
            }
        }
        func path(_ keys: [any CodingKey]) -> String { keys.map { "\($0.stringValue)#\($0.intValue ?? -1)" }.joined(separator: "/") }
        log.append("decoder path \(path(decoder.codingPath))")
        guard let container = try? decoder.container(keyedBy: Keys.self) else {
            note("single nil") { try decoder.singleValueContainer().decodeNil() }
            note("unkeyed") { try decoder.unkeyedContainer().count }
            return
        }
        log.append("container path \(path(container.codingPath))")
        log.append("keys \(container.allKeys.map(\.stringValue).sorted())")
        for key in [Keys.a, .b, .n, .missing, .super] { log.append("contains \(key) \(container.contains(key))") }
        note("a Int") { try container.decode(Int.self, forKey: .a) }
        note("a String") { try container.decode(String.self, forKey: .a) }
        note("a Int8?") { try container.decodeIfPresent(Int8.self, forKey: .a) }
        note("n nil") { try container.decodeNil(forKey: .n) }
        note("missing nil") { try container.decodeNil(forKey: .missing) }
        note("missing Int?") { try container.decodeIfPresent(Int.self, forKey: .missing) }
        note("n Bool?") { try container.decodeIfPresent(Bool.self, forKey: .n) }
        note("n String") { try container.decode(String.self, forKey: .n) }
        note("n Int") { try container.decode(Int.self, forKey: .n) }
        note("n Bool") { try container.decode(Bool.self, forKey: .n) }
        note("n [Int]") { try container.decode([Int].self, forKey: .n) }
        note("o nested keyed") {
            let nested = try container.nestedContainer(keyedBy: Keys.self, forKey: .o)
            var inner = try nested.nestedUnkeyedContainer(forKey: .p)
            return "\(path(nested.codingPath)) \(path(inner.codingPath)) \(try inner.decode(Bool.self)) \(path(inner.codingPath))"
        }
        note("b nested unkeyed") {
            var nested = try container.nestedUnkeyedContainer(forKey: .b)
            var steps: [String] = ["count \(String(describing: nested.count))"]
            steps.append("nil? \(try nested.decodeNil()) at \(nested.currentIndex)")
            steps.append("Int? \(String(describing: try nested.decodeIfPresent(Int.self))) at \(nested.currentIndex)")
            steps.append("nil? \(try nested.decodeNil()) at \(nested.currentIndex)")
            steps.append("String \(try nested.decode(String.self)) at \(nested.currentIndex)")
            let keyed = try nested.nestedContainer(keyedBy: Keys.self)
            steps.append("c \(try keyed.decode(Int.self, forKey: .c)) at \(path(keyed.codingPath))")
            steps.append("end \(nested.isAtEnd)")
            steps.append("past end Int? \(String(describing: try nested.decodeIfPresent(Int.self))) at \(nested.currentIndex)")
            return steps
        }
        note("b past end") {
            var nested = try container.nestedUnkeyedContainer(forKey: .b)
            while !nested.isAtEnd { _ = try nested.superDecoder() }
            return try nested.decode(Int.self)
        }
        note("b super past end") {
            var nested = try container.nestedUnkeyedContainer(forKey: .b)
            while !nested.isAtEnd { _ = try nested.decodeNil() ? nil : try nested.superDecoder() }
            return try nested.superDecoder()
        }
        note("b nested unkeyed past end") {
            var nested = try container.nestedUnkeyedContainer(forKey: .b)
            while !nested.isAtEnd { _ = try nested.superDecoder() }
            return try nested.nestedUnkeyedContainer()
        }
        note("b nested keyed past end") {
            var nested = try container.nestedUnkeyedContainer(forKey: .b)
            while !nested.isAtEnd { _ = try nested.superDecoder() }
            return try nested.nestedContainer(keyedBy: Keys.self)
        }
        note("b nil past end") {
            var nested = try container.nestedUnkeyedContainer(forKey: .b)
            while !nested.isAtEnd { _ = try nested.superDecoder() }
            return try nested.decodeNil()
        }
        note("super") {
            let superDecoder = try container.superDecoder()
            let inner = try superDecoder.container(keyedBy: Keys.self)
            return "\(path(superDecoder.codingPath)) \(try inner.decode(Int.self, forKey: .s))"
        }
        note("super missing") {
            let superDecoder = try container.superDecoder(forKey: .missing)
            return "\(path(superDecoder.codingPath)) \(try superDecoder.singleValueContainer().decodeNil())"
        }
        note("missing keyed") { try container.nestedContainer(keyedBy: Keys.self, forKey: .missing) }
        note("a as keyed") { try container.nestedContainer(keyedBy: Keys.self, forKey: .a) }
        note("a as unkeyed") { try container.nestedUnkeyedContainer(forKey: .a) }
        note("n as keyed") { try container.nestedContainer(keyedBy: Keys.self, forKey: .n) }
        note("n as unkeyed") { try container.nestedUnkeyedContainer(forKey: .n) }
        note("b as [String: Int]") { try container.decode([String: Int].self, forKey: .b) }
        note("o as [String: [Bool]]") { try container.decode([String: [Bool]].self, forKey: .o) }
        note("single") { try decoder.singleValueContainer().decode(Int.self) }
    }
}
