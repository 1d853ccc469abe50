/// ASCII digits, the only digits HTTP's grammar knows (`DIGIT`, RFC 5234): `Character.isNumber`
/// would also take `٣` or `²`.
extension UInt8 {
    /// Whether the byte is one of the ASCII digits 0-9.
    var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}

extension StringProtocol {
    /// Whether the text is one or more ASCII digits and nothing else.
    var isASCIIDigits: Bool { !isEmpty && utf8.allSatisfy(\.isASCIIDigit) }
}
