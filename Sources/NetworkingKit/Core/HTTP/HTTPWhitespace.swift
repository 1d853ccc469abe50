extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingHTTPWhitespace() -> String {
        String(Substring(utf8.trimmingHTTPWhitespace()))
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingHTTPWhitespace() -> String {
        self[...].trimmingHTTPWhitespace()
    }
}

extension Substring.UTF8View {
    /// The bytes without leading and trailing spaces and tabs (HTTP's optional whitespace). Both
    /// are ASCII, so the bounds fall between characters.
    func trimmingHTTPWhitespace() -> Substring.UTF8View {
        guard let start = firstIndex(where: { !isHTTPWhitespace($0) }),
            let last = lastIndex(where: { !isHTTPWhitespace($0) })
        else { return self[endIndex...] }
        return self[start...last]
    }
}

/// A space or a tab: HTTP's optional whitespace (RFC 9110 §5.6.3).
private func isHTTPWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}
