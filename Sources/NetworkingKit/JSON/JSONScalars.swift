import Foundation

/// Reads strings and numbers where they lie in the document, with `JSONDecoder`'s rules: what it
/// accepts, what it rejects, and the values it produces.
enum JSONScalars {
    // MARK: Strings

    /// The string at `offset`, `length` bytes long (without quotes), of the given kind.
    static func string(
        _ bytes: UnsafePointer<UInt8>, offset: Int, length: Int, kind: JSONTape.Kind
    ) throws(JSONSyntaxError) -> String {
        let buffer = UnsafeBufferPointer(start: bytes + offset, count: length)
        if kind == .asciiString { return String(decoding: buffer, as: UTF8.self) }
        if kind == .plainString {
            guard let text = String(validating: buffer, as: UTF8.self) else { throw JSONSyntaxError() }
            return text
        }
        return try unescaped(buffer)
    }

    /// Resolves escapes into UTF-8, then checks the whole: a chunk of raw bytes that is not UTF-8
    /// stays invalid next to an escape's output, which starts with a lead or ASCII byte.
    private static func unescaped(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(buffer.count)
        var index = 0
        let end = buffer.count
        while index < end {
            let byte = buffer[index]
            if byte != UInt8(ascii: "\\") {
                // The characters that must be escaped: an error only now, when the string is read.
                guard byte >= 0x20 else { throw JSONSyntaxError() }
                output.append(byte)
                index &+= 1
                continue
            }
            // The scan saw at least one byte after a backslash, and four after `\u`.
            let escape = buffer[index &+ 1]
            index &+= 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                let unit = try hexUnit(buffer, at: index)
                index &+= 4
                let scalar: Unicode.Scalar
                if UTF16.isLeadSurrogate(unit) {
                    guard end &- index >= 2, buffer[index] == UInt8(ascii: "\\"), buffer[index &+ 1] == UInt8(ascii: "u"),
                        end &- index >= 6
                    else { throw JSONSyntaxError() }
                    let trail = try hexUnit(buffer, at: index &+ 2)
                    guard UTF16.isTrailSurrogate(trail) else { throw JSONSyntaxError() }
                    index &+= 6
                    scalar = UTF16.decode(UTF16.EncodedScalar([unit, trail]))
                } else {
                    guard let single = Unicode.Scalar(unit) else { throw JSONSyntaxError() }
                    scalar = single
                }
                output.append(contentsOf: UTF8.encode(scalar).unsafelyUnwrapped)
            default:
                throw JSONSyntaxError()
            }
        }
        guard let text = String(validating: output, as: UTF8.self) else { throw JSONSyntaxError() }
        return text
    }

    private static func hexUnit(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) throws(JSONSyntaxError) -> UInt16 {
        guard buffer.count &- index >= 4 else { throw JSONSyntaxError() }
        var unit: UInt16 = 0
        for offset in 0..<4 {
            let byte = buffer[index &+ offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw JSONSyntaxError()
            }
            unit = unit &<< 4 | UInt16(digit)
        }
        return unit
    }

    // MARK: Numbers

    /// `JSONDecoder`'s check before a number is converted: no leading zero, a digit after `-` and
    /// before the exponent, and a digit last. The rest of the form is left to the conversion,
    /// which must consume every byte.
    static func checkForm(_ p: UnsafePointer<UInt8>, _ length: Int, mayHaveExponent: Bool) throws(JSONSyntaxError) {
        var first = 0
        if p[0] == UInt8(ascii: "-") {
            guard length > 1, p[1] &- UInt8(ascii: "0") < 10 else { throw JSONSyntaxError() }
            first = 1
        }
        if p[first] == UInt8(ascii: "0"), first &+ 1 < length {
            switch p[first &+ 1] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: throw JSONSyntaxError()
            }
        }
        if mayHaveExponent {
            var index = first &+ 1
            while index < length {
                let byte = p[index]
                if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    guard p[index &- 1] &- UInt8(ascii: "0") < 10 else { throw JSONSyntaxError() }
                    break
                }
                index &+= 1
            }
        }
        guard p[length &- 1] &- UInt8(ascii: "0") < 10 else { throw JSONSyntaxError() }
    }

    /// Digits with an optional sign, or `nil` when there is anything else or the value overflows
    /// (then `JSONDecoder` reads the number as a `Double`).
    @inline(__always)
    static func plainInteger<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ length: Int, as type: T.Type) -> T? {
        var index = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative || p[0] == UInt8(ascii: "+") { index = 1 }
        guard index < length else { return nil }
        var result: T = 0
        while index < length {
            let digit = p[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(T(truncatingIfNeeded: digit))
                : shifted.addingReportingOverflow(T(truncatingIfNeeded: digit))
            guard !overflow1 && !overflow2 else { return nil }
            result = next
            index &+= 1
        }
        return result
    }

    /// An integer as `JSONDecoder` reads it: digits directly; otherwise through a `Double` that
    /// must be an exact integer of the type and below 2^53 in magnitude. Larger ones are read
    /// through `Decimal` by `JSONDecoder`, which ``JSONNeedsFoundation`` hands over to it.
    static func integer<T: FixedWidthInteger>(
        _ bytes: UnsafePointer<UInt8>, offset: Int, length: Int, plain: Bool, as type: T.Type
    ) throws -> T {
        let p = bytes + offset
        try checkForm(p, length, mayHaveExponent: !plain)
        if let value = plainInteger(p, length, as: T.self) { return value }
        guard let double = double(p, length) else { throw JSONSyntaxError() }
        guard let value = T(exactly: double) else { throw JSONSyntaxError() }
        if double.magnitude < 9_007_199_254_740_992 { return value }
        throw JSONNeedsFoundation()
    }

    /// A `Double` as `strtod` reads the whole of the bytes, or `nil` if it stops early.
    static func double(_ p: UnsafePointer<UInt8>, _ length: Int) -> Double? {
        if let exact = FastDecimal(p, length), let value = exact.double { return value }
        return Double(String(decoding: UnsafeBufferPointer(start: p, count: length), as: UTF8.self))
    }

    /// A `Float` as `strtof` reads the whole of the bytes, or `nil` if it stops early.
    static func float(_ p: UnsafePointer<UInt8>, _ length: Int) -> Float? {
        if let exact = FastDecimal(p, length), let value = exact.float { return value }
        return Float(String(decoding: UnsafeBufferPointer(start: p, count: length), as: UTF8.self))
    }

    /// A floating-point number as `JSONDecoder` reads it: finite, and zero only when every digit
    /// before the exponent is.
    static func floatingPoint<T: BinaryFloatingPoint>(
        _ bytes: UnsafePointer<UInt8>, offset: Int, length: Int, plain: Bool, as type: T.Type
    ) throws(JSONSyntaxError) -> T {
        let p = bytes + offset
        try checkForm(p, length, mayHaveExponent: !plain)
        let parsed: T?
        if T.self == Float.self {
            parsed = float(p, length).map { T($0) }
        } else {
            parsed = double(p, length).map { T($0) }
        }
        guard let value = parsed, value.isFinite else { throw JSONSyntaxError() }
        if value == 0, !isTrueZero(p, length) { throw JSONSyntaxError() }
        return value
    }

    /// Whether a number that converted to zero is written as zero, checked as `JSONDecoder`
    /// checks it: four bytes at a time from the start, the last one to three bytes from the end
    /// backwards, stopping at a nonzero digit (not zero) or an exponent (zero). So `-0.0e5` is not
    /// zero for it, and not here either.
    static func isTrueZero(_ p: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        @inline(__always) func check(_ byte: UInt8) -> Bool? {
            if byte &- UInt8(ascii: "1") < 9 { return false }
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return true }
            return nil
        }
        var start = 0
        while length &- start >= 4 {
            for offset in 0..<4 {
                if let result = check(p[start &+ offset]) { return result }
            }
            start &+= 4
        }
        var offset = length &- start
        while offset > 0 {
            offset &-= 1
            if let result = check(p[start &+ offset]) { return result }
        }
        return true
    }

    /// Whether the bytes are a number in JSON's strict form, which `Decimal`'s parser must
    /// consume whole for `JSONDecoder`.
    static func isStrictNumber(_ p: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        var index = 0
        @inline(__always) func digits() -> Bool {
            let start = index
            while index < length, p[index] &- UInt8(ascii: "0") < 10 { index &+= 1 }
            return index > start
        }
        if p[0] == UInt8(ascii: "-") { index = 1 }
        guard digits() else { return false }
        if index < length, p[index] == UInt8(ascii: ".") {
            index &+= 1
            guard digits() else { return false }
        }
        if index < length, p[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            if index < length, p[index] == UInt8(ascii: "+") || p[index] == UInt8(ascii: "-") { index &+= 1 }
            guard digits() else { return false }
        }
        return index == length
    }

    static func decimal(_ bytes: UnsafePointer<UInt8>, offset: Int, length: Int, plain: Bool) throws -> Decimal {
        let p = bytes + offset
        try checkForm(p, length, mayHaveExponent: !plain)
        guard isStrictNumber(p, length),
            let value = Decimal(string: String(decoding: UnsafeBufferPointer(start: p, count: length), as: UTF8.self))
        else { throw JSONSyntaxError() }
        return value
    }
}

/// A number whose decimal significand and power of ten are small enough that one correctly
/// rounded multiplication or division gives the same value `strtod` gives (Clinger's fast path).
struct FastDecimal {
    var negative: Bool
    var significand: UInt64
    var exponent: Int

    /// `nil` when the bytes are not a plain decimal number or hold more than 19 digits.
    init?(_ p: UnsafePointer<UInt8>, _ length: Int) {
        var index = 0
        negative = p[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        significand = 0
        exponent = 0
        var digits = 0
        var sawDigit = false
        while index < length, p[index] &- UInt8(ascii: "0") < 10 {
            if significand != 0 || p[index] != UInt8(ascii: "0") { digits &+= 1 }
            significand = significand &* 10 &+ UInt64(p[index] &- UInt8(ascii: "0"))
            index &+= 1
            sawDigit = true
        }
        if index < length, p[index] == UInt8(ascii: ".") {
            index &+= 1
            var fraction = false
            while index < length, p[index] &- UInt8(ascii: "0") < 10 {
                if significand != 0 || p[index] != UInt8(ascii: "0") { digits &+= 1 }
                significand = significand &* 10 &+ UInt64(p[index] &- UInt8(ascii: "0"))
                exponent &-= 1
                index &+= 1
                fraction = true
            }
            guard fraction else { return nil }
        }
        guard sawDigit, digits <= 19 else { return nil }
        if index < length, p[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            var negativeExponent = false
            if index < length, p[index] == UInt8(ascii: "-") || p[index] == UInt8(ascii: "+") {
                negativeExponent = p[index] == UInt8(ascii: "-")
                index &+= 1
            }
            var value = 0
            var exponentDigits = 0
            while index < length, p[index] &- UInt8(ascii: "0") < 10 {
                if value < 100_000 { value = value &* 10 &+ Int(p[index] &- UInt8(ascii: "0")) }
                index &+= 1
                exponentDigits &+= 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent &+= negativeExponent ? -value : value
        }
        guard index == length else { return nil }
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private static let floatPowersOfTen: [Float] = (0...10).map { exponent in
        var value: Float = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    var double: Double? {
        if significand == 0 { return negative ? -0.0 : 0.0 }
        guard significand <= 1 &<< 53, exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(significand)
        if exponent >= 0 {
            value *= Self.powersOfTen[exponent]
        } else {
            value /= Self.powersOfTen[-exponent]
        }
        return negative ? -value : value
    }

    var float: Float? {
        if significand == 0 { return negative ? -0.0 : 0.0 }
        guard significand <= 1 &<< 24, exponent >= -10, exponent <= 10 else { return nil }
        var value = Float(significand)
        if exponent >= 0 {
            value *= Self.floatPowersOfTen[exponent]
        } else {
            value /= Self.floatPowersOfTen[-exponent]
        }
        return negative ? -value : value
    }
}

/// Thrown (and remembered) when a value is one `JSONDecoder` reads by a route this decoder does
/// not repeat; the whole document is then decoded by `JSONDecoder` itself.
struct JSONNeedsFoundation: Error {}
