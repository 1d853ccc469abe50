/// Finding and showing control characters in text that goes on the wire: a header value or a URL.
///
/// Both places refuse them rather than let a lower layer rewrite them: swift-http-types turns them
/// into spaces in a header value, and Foundation's `URL(string:)` percent-encodes them, so the
/// request would carry text the caller did not write (header injection, a different path).
package enum ControlCharacters {
    /// Whether `byte` is a C0 control or DEL; `allowingTab` lets HTAB through (legal in a header value).
    package static func isControl(_ byte: UInt8, allowingTab: Bool = false) -> Bool {
        (byte < 0x20 && !(allowingTab && byte == 0x09)) || byte == 0x7F
    }

    /// The first control byte in `text`, if any.
    package static func first(in text: String, allowingTab: Bool = false) -> UInt8? {
        text.utf8.first { isControl($0, allowingTab: allowingTab) }
    }

    /// How an error names `byte`: "CR", "LF", "NUL" or "a control character".
    package static func name(of byte: UInt8) -> String {
        switch byte {
        case 0x0D: "CR"
        case 0x0A: "LF"
        case 0x00: "NUL"
        default: "a control character"
        }
    }

    /// `text` with each control character written as an escape (`\r`, `\n`, `\u{0}`), so that an
    /// error message quoting it stays on one line and shows what was there.
    package static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
