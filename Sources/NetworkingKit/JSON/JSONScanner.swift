/// The one way a document's structure is wrong: `JSONDecoder` reports every syntax error with the
/// same `DecodingError`, so where and why is not carried.
struct JSONSyntaxError: Error {}

/// Fills a ``JSONTape`` from a document's bytes in one pass, or finds the document invalid.
///
/// Recursive, with nesting bounded at 512 arrays and objects as `JSONDecoder` bounds it: a hostile
/// answer cannot overflow the stack.
struct JSONScanner: ~Copyable {
    static let maximumDepth = 512

    private let bytes: UnsafePointer<UInt8>
    private let end: Int
    private var index = 0
    private var depth = 0
    var tape: JSONTape

    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.end = count
        self.tape = JSONTape(capacityFor: count)
    }

    /// Scans the whole document: one value, whitespace around it.
    mutating func scan() throws(JSONSyntaxError) {
        try scanValue(try nextSignificant())
        while index < end {
            guard Self.isWhitespace(bytes[index]) else { throw JSONSyntaxError() }
            index &+= 1
        }
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        // Space, tab, line feed, carriage return: one test against a bit set.
        byte <= 0x20 && (1 &<< UInt64(byte)) & 0x1_0000_2600 != 0
    }

    /// Skips whitespace and returns the byte after it, which stays unread.
    @inline(__always)
    private mutating func nextSignificant() throws(JSONSyntaxError) -> UInt8 {
        while index < end {
            let byte = bytes[index]
            if !Self.isWhitespace(byte) { return byte }
            index &+= 1
        }
        throw JSONSyntaxError()
    }

    private mutating func scanValue(_ first: UInt8) throws(JSONSyntaxError) {
        switch first {
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "{"): try scanObject()
        case UInt8(ascii: "["): try scanArray()
        case UInt8(ascii: "t"): try scanLiteral(0x6575_7274, .true)  // "true"
        case UInt8(ascii: "f"): try scanFalse()
        case UInt8(ascii: "n"): try scanLiteral(0x6C6C_756E, .null)  // "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): scanNumber()
        default: throw JSONSyntaxError()
        }
    }

    private mutating func scanLiteral(_ expected: UInt32, _ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        guard end &- index >= 4,
            UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: expected)
        else { throw JSONSyntaxError() }
        tape.append(kind, payload: 0, second: index)
        index &+= 4
    }

    private mutating func scanFalse() throws(JSONSyntaxError) {
        guard end &- index >= 5,
            UnsafeRawPointer(bytes + index + 1).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x6573_6C61)
        else { throw JSONSyntaxError() }
        tape.append(.false, payload: 0, second: index)
        index &+= 5
    }

    /// Skips what can belong to a number (`JSONDecoder` checks its form only when it is read).
    private mutating func scanNumber() {
        let start = index
        index &+= 1
        var integer = true
        while index < end {
            let byte = bytes[index]
            if byte &- UInt8(ascii: "0") < 10 {
                index &+= 1
                continue
            }
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                integer = false
                index &+= 1
            default:
                tape.append(integer ? .integer : .number, payload: index &- start, second: start)
                return
            }
        }
        tape.append(integer ? .integer : .number, payload: index &- start, second: start)
    }

    /// Finds the closing quote eight bytes at a time: a string is plain (no escape, no control
    /// character) and ASCII until a byte says otherwise.
    private mutating func scanString() throws(JSONSyntaxError) {
        index &+= 1
        let start = index
        var highBits: UInt64 = 0
        var escaped = false
        while true {
            if end &- index >= 8 {
                let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
                let stops = Self.stops(in: word)
                if stops == 0 {
                    highBits |= word
                    index &+= 8
                    continue
                }
                let skipped = stops.trailingZeroBitCount &>> 3
                // The bytes before the stop belong to the string.
                highBits |= word & ((1 &<< UInt64(skipped &* 8)) &- 1)
                index &+= skipped
            } else {
                guard index < end else { throw JSONSyntaxError() }
                let byte = bytes[index]
                if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte >= 0x20 {
                    highBits |= UInt64(byte)
                    index &+= 1
                    continue
                }
            }
            // A stop: the closing quote, an escape, or a control character.
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let kind: JSONTape.Kind =
                    escaped ? .escapedString : (highBits & 0x8080_8080_8080_8080 == 0 ? .asciiString : .plainString)
                tape.append(kind, payload: index &- start, second: start)
                index &+= 1
                return
            case UInt8(ascii: "\\"):
                escaped = true
                index &+= 1
                guard index < end else { throw JSONSyntaxError() }
                if bytes[index] == UInt8(ascii: "u") {
                    // Four more bytes, none a quote; whether they are hex digits is checked when read.
                    guard end &- index > 4 else { throw JSONSyntaxError() }
                    for offset in 1...4 where bytes[index &+ offset] == UInt8(ascii: "\"") {
                        throw JSONSyntaxError()
                    }
                    index &+= 5
                } else {
                    index &+= 1
                }
            default:
                // A control character: an error only if the string is read.
                escaped = true
                index &+= 1
            }
        }
    }

    /// A bit set in the high bit of each byte that is a quote, a backslash or below 0x20; the
    /// lowest one is exact (higher ones may be false, which the caller never looks at).
    @inline(__always)
    private static func stops(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & high
    }

    private mutating func enter() throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else { throw JSONSyntaxError() }
        depth &+= 1
    }

    private mutating func scanArray() throws(JSONSyntaxError) {
        try enter()
        defer { depth &-= 1 }
        index &+= 1
        let start = tape.count
        tape.append(.array, payload: 0, second: 0)
        var members = 0
        var byte = try nextSignificant()
        if byte != UInt8(ascii: "]") {
            while true {
                try scanValue(byte)
                members &+= 1
                byte = try nextSignificant()
                if byte == UInt8(ascii: ",") {
                    index &+= 1
                    byte = try nextSignificant()
                    // `JSONDecoder` accepts a trailing comma.
                    if byte == UInt8(ascii: "]") { break }
                    continue
                }
                guard byte == UInt8(ascii: "]") else { throw JSONSyntaxError() }
                break
            }
        }
        index &+= 1
        tape.close(start, .array, count: members)
    }

    private mutating func scanObject() throws(JSONSyntaxError) {
        try enter()
        defer { depth &-= 1 }
        index &+= 1
        let start = tape.count
        tape.append(.object, payload: 0, second: 0)
        var members = 0
        var unusualKeys = false
        var byte = try nextSignificant()
        if byte != UInt8(ascii: "}") {
            while true {
                guard byte == UInt8(ascii: "\"") else { throw JSONSyntaxError() }
                try scanString()
                if tape.kind(at: tape.count &- 2) != .asciiString { unusualKeys = true }
                guard try nextSignificant() == UInt8(ascii: ":") else { throw JSONSyntaxError() }
                index &+= 1
                try scanValue(try nextSignificant())
                members &+= 1
                byte = try nextSignificant()
                if byte == UInt8(ascii: ",") {
                    index &+= 1
                    byte = try nextSignificant()
                    // `JSONDecoder` accepts a trailing comma.
                    if byte == UInt8(ascii: "}") { break }
                    continue
                }
                guard byte == UInt8(ascii: "}") else { throw JSONSyntaxError() }
                break
            }
        }
        index &+= 1
        tape.close(start, .object, count: unusualKeys ? members | JSONTape.unusualKeys : members)
    }
}
