import Foundation
import NetworkingKit
import Testing

/// A fixed-seed generator (SplitMix64): the same documents on every run and machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON documents: shapes, numbers at the edges of each type, escapes, raw Unicode,
/// whitespace, keys in every case style (duplicates included).
struct JSONDocumentGenerator {
    var random: SeededGenerator

    static let edgeNumbers = [
        "0", "-0", "1", "-1", "0.0", "-0.0", "1.0", "1.5", "-1.5", "1e2", "1E2", "1e+2", "1e-2", "0e0",
        "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769", "65535", "65536",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "9007199254740992", "9007199254740993",
        "9007199254740993.0", "1e19", "1e20", "1.7976931348623157e308", "1.7976931348623159e308", "1e400",
        "4.9e-324", "2e-324", "1e-400", "0e-400", "3.4028235e38", "3.4028236e38", "1e-45", "1e-46",
        "0.1", "0.2", "0.30000000000000004", "123.456e-7", "12345678901234567890123", "1.23456789012345678901",
        "01", "-", "1.", "1e", "--1", "1.2.3", "1e5e5", "-01.5",
    ]

    static let words = [
        "id", "name", "user_id", "userId", "created_at", "URL", "url_value", "a", "b", "c", "d", "e", "_private",
        "trailing_", "__dunder__", "HTTPStatus", "http_status_code", "value1", "line_2_text", "1st_place",
        "é_clair", "straße", "ǅ_x", "k_ID", "kID", "x__y", "",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func whitespace() -> String {
        guard chance(20) else { return "" }
        return String((0..<int(1...3)).map { _ in [" ", "\t", "\n", "\r"][int(0...3)] }.joined())
    }

    mutating func number() -> String {
        if chance(60) { return Self.edgeNumbers[int(0...Self.edgeNumbers.count - 1)] }
        var text = chance(30) ? "-" : ""
        text += String(int(0...999_999))
        if chance(40) { text += "." + String(int(0...99_999)) }
        if chance(30) { text += ["e", "E"][int(0...1)] + ["", "+", "-"][int(0...2)] + String(int(0...330)) }
        return text
    }

    mutating func string() -> String {
        var text = "\""
        for _ in 0..<int(0...12) {
            switch int(0...14) {
            case 0: text += ["\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r"][int(0...7)]
            case 1: text += String(format: "\\u%04X", int(0...0xFFFF))
            case 2: text += "\\uD83D\\uDE00"
            case 3: text += ["é", "€", "😀", "日", "\u{0301}", "\u{212A}"][int(0...5)]
            case 4 where chance(10): text += ["\\x", "\\u12", "\u{01}", "\\"][int(0...3)]
            default:
                text += String(UnicodeScalar(UInt8(int(0x20...0x7E))))
                    .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            }
        }
        return text + "\""
    }

    mutating func key() -> String {
        if chance(70) { return "\"" + Self.words[int(0...Self.words.count - 1)] + "\"" }
        return string()
    }

    mutating func value(depth: Int) -> String {
        let pick = depth > 4 ? int(0...5) : int(0...8)
        switch pick {
        case 0: return "null"
        case 1: return chance(50) ? "true" : "false"
        case 2, 3: return number()
        case 4, 5: return string()
        case 6:
            let elements = (0..<int(0...5)).map { _ in whitespace() + value(depth: depth + 1) + whitespace() }
            return "[" + elements.joined(separator: ",") + (chance(3) ? "," : "") + "]"
        default:
            let members = (0..<int(0...6)).map { _ in
                whitespace() + key() + whitespace() + ":" + whitespace() + value(depth: depth + 1) + whitespace()
            }
            return "{" + members.joined(separator: ",") + (chance(3) ? ",}" : "}")
        }
    }

    /// A document, sometimes with a byte changed, dropped or added.
    mutating func document() -> Data {
        var bytes = Array((whitespace() + value(depth: 0) + whitespace()).utf8)
        if chance(15), !bytes.isEmpty {
            let index = int(0...bytes.count - 1)
            switch int(0...2) {
            case 0: bytes[index] = UInt8(int(0...255))
            case 1: bytes.remove(at: index)
            default:
                let inserts = Array("{}[],:\"\\0-e.".utf8)
                bytes.insert(inserts[int(0...inserts.count - 1)], at: index)
            }
        }
        return Data(bytes)
    }
}

@Suite("FastJSONDecoder: generated documents against JSONDecoder")
struct FastJSONGeneratedTests {
    @Test("3,000 generated documents decode the same as every probe, under every key strategy")
    func generatedDocuments() {
        var generator = JSONDecoderGeneratorSeed.make()
        var failures = 0
        for _ in 0..<3_000 {
            let data = generator.document()
            for foundation in DecoderComparison.keyStrategies() {
                for (probe, expected, actual) in Probes.outcomes(data, foundation: foundation) where actual != expected {
                    failures += 1
                    if failures <= 20 {
                        Issue.record(
                            "\(probe) from \(DecoderComparison.printable(data)) (keys: \(foundation.keyDecodingStrategy)): JSONDecoder gave \(expected), FastJSONDecoder gave \(actual)"
                        )
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    @Test("numbers at the edges of each type decode the same as every integer and floating-point type")
    func edgeNumbers() {
        for number in JSONDocumentGenerator.edgeNumbers {
            for text in [number, "[\(number)]", "{\"a\":\(number)}"] {
                Probes.expectAgreement(Data(text.utf8))
            }
        }
        var generator = JSONDecoderGeneratorSeed.make()
        for _ in 0..<2_000 {
            let data = Data("[\(generator.number())]".utf8)
            DecoderComparison.expectSame([Double].self, data) { $0.map(\.bitPattern).description }
            DecoderComparison.expectSame([Float].self, data) { $0.map(\.bitPattern).description }
            DecoderComparison.expectSame([Int].self, data)
            DecoderComparison.expectSame([UInt32].self, data)
            DecoderComparison.expectSame([Decimal].self, data)
        }
    }
}

enum JSONDecoderGeneratorSeed {
    static func make() -> JSONDocumentGenerator { JSONDocumentGenerator(random: SeededGenerator(seed: 0x4E4B_4A53_4F4E)) }
}
