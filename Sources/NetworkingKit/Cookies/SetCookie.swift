import Foundation

/// One `Set-Cookie` field as RFC 6265 §5.2 parses it, with the changes of RFC 6265bis that
/// browsers ship: a field without `=` is a cookie with an empty name, control characters refuse
/// the whole field, name and value together may not pass 4096 bytes, an attribute value may not
/// pass 1024. What the attributes mean for the jar (expiry, domain, secure origins) is decided
/// when it is stored (``CookieStore``), where the request's URL and the time are known.
struct SetCookie: Equatable {
    var name: String
    var value: String
    /// The last `Expires` that parsed as a date.
    var expires: Date?
    /// The last valid `Max-Age`, in seconds (zero or less means "expired").
    var maxAge: Int?
    /// The last `Domain` with a value, lowercased, its leading dot removed.
    var domain: String?
    /// The last `Path` that starts with `/` (a path that does not is the default one: `nil`).
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    /// The last `SameSite`; a value that is none of the three reads as unspecified.
    var sameSite: Cookie.SameSite?

    /// The largest name and value together, and the largest attribute value (RFC 6265bis §5.6).
    static let maxNameAndValueBytes = 4096
    static let maxAttributeValueBytes = 1024

    /// Parses one `Set-Cookie` field value; `nil` when the field is to be ignored.
    ///
    /// Split at the bytes `;` and `=`, never at Characters: a `;` followed by a combining mark is
    /// still a separator, and a character merely equivalent to one (U+037E) is not.
    init?(_ field: String) {
        // Control characters (other than a tab) refuse the field: a NUL or CR in a stored cookie
        // could end a header it is later written into.
        guard !field.utf8.contains(where: { ControlCharacters.isControl($0, allowingTab: true) }) else { return nil }
        let parts = field[...].utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        let pair = parts[0]
        if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
            name = Self.text(pair[..<equals])
            value = Self.text(pair[pair.index(after: equals)...])
        } else {
            name = ""
            value = Self.text(pair)
        }
        guard !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= Self.maxNameAndValueBytes else {
            return nil
        }
        for attribute in parts.dropFirst() {
            apply(attribute)
        }
    }

    /// `bytes` without leading and trailing spaces and tabs, as text.
    private static func text(_ bytes: Substring.UTF8View) -> String {
        String(decoding: bytes.trimmingHTTPWhitespace(), as: UTF8.self)
    }

    /// RFC 6265 §5.2.1-§5.2.6, and SameSite (RFC 6265bis §5.6.7); unknown attributes are ignored.
    private mutating func apply(_ attribute: Substring.UTF8View) {
        let attributeName: String
        let attributeValue: String
        if let equals = attribute.firstIndex(of: UInt8(ascii: "=")) {
            attributeName = Self.text(attribute[..<equals])
            attributeValue = Self.text(attribute[attribute.index(after: equals)...])
        } else {
            attributeName = Self.text(attribute)
            attributeValue = ""
        }
        guard attributeValue.utf8.count <= Self.maxAttributeValueBytes else { return }
        switch attributeName.lowercased() {
        case "expires":
            if let date = CookieDate.parse(attributeValue) { expires = date }
        case "max-age":
            if let seconds = Self.maxAge(attributeValue) { maxAge = seconds }
        case "domain":
            guard !attributeValue.isEmpty else { return }
            let withoutDot = attributeValue.hasPrefix(".") ? String(attributeValue.dropFirst()) : attributeValue
            domain = withoutDot.lowercased()
        case "path":
            path = attributeValue.hasPrefix("/") ? attributeValue : nil
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite =
                switch attributeValue.lowercased() {
                case "strict": .strict
                case "lax": .lax
                case "none": Cookie.SameSite.none
                default: .unspecified
                }
        default:
            break
        }
    }

    /// `Max-Age`: an optional `-` and digits, nothing else (§5.2.2). A number too large for an
    /// `Int` is the largest one: the cap on a lifetime applies later.
    private static func maxAge(_ text: String) -> Int? {
        var digits = text.utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for digit in digits {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow, times <= Int.max - Int(digit - 0x30) else { return negative ? Int.min : Int.max }
            value = times + Int(digit - 0x30)
        }
        return negative ? -value : value
    }
}
