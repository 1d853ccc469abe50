import Foundation
import NetworkingKit
import Testing

/// The probes each corpus document is decoded as: anything, every scalar type, containers, and a
/// struct with optional and nested members.
enum Probes {
    struct Nested: Decodable, Equatable {
        let e: Bool
    }

    struct Shape: Decodable, Equatable {
        let a: Int
        let b: String?
        let c: [Double]?
        let d: Nested?
    }

    /// Every probe's outcome with both decoders, as pairs to compare.
    static func outcomes(_ data: Data, foundation: JSONDecoder) -> [(probe: String, foundation: String, fast: String)] {
        var results: [(String, String, String)] = []
        func probe<T: Decodable>(
            _ type: T.Type, errorsInAnyOrder: Bool = false, describe: @escaping (T) -> String = { "\($0)" }
        ) {
            var (expected, actual) = DecoderComparison.both(type, data, foundation: foundation, describe: describe)
            // `Dictionary` decodes its values in the order of `allKeys`, which for `JSONDecoder` is
            // a hash order that changes from one launch to the next: of two bad values, either
            // error may come first. That both fail is what compares.
            if errorsInAnyOrder, expected.hasPrefix("error"), actual.hasPrefix("error") { (expected, actual) = ("error", "error") }
            results.append(("\(T.self)", expected, actual))
        }
        probe(AnyJSON.self)
        probe(String.self)
        probe(Bool.self)
        probe(Int.self)
        probe(Int8.self)
        probe(UInt8.self)
        probe(Int16.self)
        probe(UInt32.self)
        probe(Int64.self)
        probe(UInt64.self)
        probe(Double.self) { "\($0)[\($0.bitPattern)]" }
        probe(Float.self) { "\($0)[\($0.bitPattern)]" }
        probe(Decimal.self)
        probe(Int?.self)
        probe([AnyJSON].self)
        probe([String: AnyJSON].self, errorsInAnyOrder: true) { AnyJSON.object($0).description }
        probe([Int].self)
        probe([String].self)
        probe([Double?].self)
        probe(Shape.self)
        probe([Shape].self)
        return results
    }

    /// Expects every probe to agree, under every key strategy.
    static func expectAgreement(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        for foundation in DecoderComparison.keyStrategies() {
            for (probe, expected, actual) in outcomes(data, foundation: foundation) where actual != expected {
                Issue.record(
                    "\(probe) from \(DecoderComparison.printable(data)) (keys: \(foundation.keyDecodingStrategy)): JSONDecoder gave \(expected), FastJSONDecoder gave \(actual)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

/// Parsing cases of our own: what RFC 8259 accepts, what it rejects, and what it leaves to the
/// implementation, each decoded by both decoders as every probe, under every key strategy.
@Suite("FastJSONDecoder: the parsing corpus")
struct FastJSONCorpusTests {
    /// Documents RFC 8259 accepts.
    static let accepted: [String] = [
        "{}", "[]", "0", "-0", "1", "-1", "\"\"", "true", "false", "null", " 1 ", "\t\n\r [ ] \t\n\r",
        #"{"a":1}"#, #"{"a":1,"b":"x","c":[1.5,2],"d":{"e":true}}"#, #"[{"a":1},{"a":2,"b":null}]"#,
        #"{"a": 1 , "b" : [ 1 , 2 ] }"#, #"[1,[2,[3,[4]]]]"#, #"{"":1}"#, #"{"a":{"a":{"a":{}}}}"#,
        "1.5", "-1.5", "1e5", "1E5", "1e+5", "1e-5", "-1.5e-7", "0.5", "0e0", "0E-0", "-0.0", "0.000001",
        "123456789", "9223372036854775807", "-9223372036854775808", "18446744073709551615",
        "9007199254740993", "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
        "3.4028235e38", "1.17549435e-38", "0.1", "0.30000000000000004", "123456789012345678901234567890",
        "1.00000000000000011102230246251565404236316680908203125", "2.5", "1e22", "1e23", "8.5e-7",
        #""abc""#, #""a\"b""#, #""a\\b""#, #""a\/b""#, #""\b\f\n\r\t""#, #""\u0041""#, #""\u00e9""#,
        #""\u20AC""#, #""\uD83D\uDE00""#, #""\u0000""#, #""\uFFFF""#, #""é€😀""#, #""日本語""#,
        #"{"é":1}"#, #"{"a\u0062":1}"#, #"{"snake_case_key":1,"another_one_2":2}"#,
        #"{"a":1,"a":2}"#, #"{"a_b":1,"aB":2}"#, #"{"aB":1,"a_b":2}"#, #"{"_a_":1,"__b":2,"c__":3}"#,
        #"{"URL_value":1,"url_VALUE":2,"Url":3,"user_1st_name":4,"a1b_c2d":5}"#,
        #"{"a":[],"b":{},"c":"","d":0}"#, #"[null,null]"#, #"[true,false,null]"#, #"[1,2.5,"x",null]"#,
    ]

    /// Documents RFC 8259 rejects.
    static let rejected: [String] = [
        "", " ", "{", "}", "[", "]", "[1", "[1,", "{\"a\"", "{\"a\":", "{\"a\":1", "{a:1}", "{'a':1}", "['a']",
        "[1 2]", "{\"a\":1 \"b\":2}", "{\"a\" 1}", "{,}", "[,]", "[,1]", "{\"a\":1,,\"b\":2}", "[1,,2]",
        "01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "1e-", "1.e5", "--1", "1.2.3", "1e5e5",
        "0x10", "1_000", "NaN", "Infinity", "-Infinity", "nan", "inf", "tru", "truee", "nul", "nulll",
        "fals", "True", "NULL", "[True]", "\"abc", "abc", "\"a\\\"", "\"\\x41\"", "\"\\u12\"",
        "\"\\u12G4\"", "\"\\uD83D\"", "\"\\uDE00\"", "\"\\uD83Dx\"", "\"\\uD83D\\u0041\"", "\"\\'\"",
        "\"a\tb\"", "\"a\nb\"", "\"\u{01}\"", "1 2", "[] []", "{}x", "[1]]", "{\"a\":1}}",
        "\u{00A0}1", "[1]\u{00A0}", "1\u{0B}", "\u{0C}1",
    ]

    /// What RFC 8259 leaves to the implementation, or `JSONDecoder` accepts beyond it.
    static let implementationDefined: [String] = [
        "[1,]", "{\"a\":1,}", "[1,2,]", "{\"a\":[1,],}", "1e400", "-1e400", "1e-400", "0e-400",
        "-1e-400", "1e-320", "3.4028236e38", "1e-46", "1e39", "9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "1.0", "-1.0", "1e2", "100e-2", "1.5",
        "9007199254740993.0", "9007199254740992.5", "1e19", "-0.0e5", "123456789012345678901234567890e-10",
        "0.0000000000000000000000000000000000000000001", "1E+2", "1e0002", "-0e-0",
        "18446744073709551615.0", "4294967296", "-2147483649", "255", "256", "-128", "-129",
        "\"\\u0000abc\"", "[\"\\uDBFF\\uDFFF\"]", "{\"\\u0000\":1}", "{\"\\ud800\":1}",
        "\"a\u{7F}b\"", "[\"\u{2028}\u{2029}\"]",
    ]

    /// Byte sequences no Swift string literal holds: encodings, byte order marks, bad UTF-8.
    static let bytes: [[UInt8]] = [
        [0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8),  // UTF-8 byte order mark
        [0xEF, 0xBB, 0xBF],
        [0xFF, 0xFE] + Array("[1]".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),  // UTF-16LE, BOM
        [0xFE, 0xFF] + Array("[1]".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),  // UTF-16BE, BOM
        Array("{\"a\":\"é\"}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),  // UTF-16LE
        Array("{\"a\":\"é\"}".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),  // UTF-16BE
        Array("[1]".unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] }),  // UTF-32LE
        Array("[1]".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] }),  // UTF-32BE
        [0x31, 0x00],  // "1" in UTF-16LE
        [0x00, 0x31],
        [0x22, 0xFF, 0x22],  // a byte that is never UTF-8
        [0x22, 0xC3, 0x22],  // a truncated sequence
        [0x22, 0xC0, 0x80, 0x22],  // an overlong NUL
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // a surrogate in UTF-8
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xE2, 0x82, 0xAC, 0x22],  // "€", valid
        Array("{\"".utf8) + [0xFF] + Array("\":1}".utf8),  // a bad key
        Array("{\"a\":1,\"".utf8) + [0xC3] + Array("\":2}".utf8),  // a bad key after a good one
        Array("[\"a\",\"".utf8) + [0xFF] + Array("\"]".utf8),  // a bad string not read by some probes
        Array("{\"a\":1,\"b\":\"".utf8) + [0xFF] + Array("\"}".utf8),  // a bad value under another key
        Array("{\"a\":1,\"b\":01}".utf8),  // a bad number under a key the struct probe does not read
        Array("{\"a\":1,\"b\":\"x\\qy\"}".utf8),  // a bad escape under an optional key
        Array("{\"a\":1,\"e\":\"x\ty\"}".utf8),  // a control character under a key no one reads
        [0x22, 0x5C, 0x75, 0x22],  // "\u" then a quote
        [0x5B, 0x00, 0x5D],  // a NUL byte between brackets
    ]

    @Test("documents RFC 8259 accepts decode the same, as every probe, under every key strategy")
    func accepted() {
        for text in Self.accepted { Probes.expectAgreement(Data(text.utf8)) }
    }

    @Test("documents RFC 8259 rejects fail the same")
    func rejected() {
        for text in Self.rejected {
            Probes.expectAgreement(Data(text.utf8))
            // And each is an error for the catch-all probe, as for `JSONDecoder`.
            let (expected, _) = DecoderComparison.both(AnyJSON.self, Data(text.utf8))
            #expect(expected.hasPrefix("error"), "JSONDecoder accepted \(text.debugDescription)")
        }
    }

    @Test("what is left to the implementation is decided as JSONDecoder decides it")
    func implementationDefined() {
        for text in Self.implementationDefined { Probes.expectAgreement(Data(text.utf8)) }
    }

    @Test("encodings, byte order marks and bytes that are not UTF-8 are treated as JSONDecoder treats them")
    func byteSequences() {
        for bytes in Self.bytes { Probes.expectAgreement(Data(bytes)) }
    }

    @Test("nesting is bounded at 512 levels, without a stack overflow at any depth")
    func nesting() {
        for depth in [100, 511, 512, 513, 600, 100_000] {
            Probes.expectAgreement(Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
            Probes.expectAgreement(Data((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8))
        }
        // Unclosed, and mixed.
        Probes.expectAgreement(Data(String(repeating: "[", count: 1_000_000).utf8))
        Probes.expectAgreement(Data((String(repeating: "[{\"a\":", count: 300) + "0" + String(repeating: "}]", count: 300)).utf8))
    }
}
