import Foundation

/// A `Content-Range` value for bytes (RFC 9110 §14.4): `bytes 200-999/1000`, or `bytes 200-999/*`
/// when the complete length is unknown.
package struct ContentRange: Hashable {
    /// The first byte's position.
    package let first: Int64
    /// The last byte's position (inclusive).
    package let last: Int64
    /// The complete length of the representation, when the server knows it.
    package let completeLength: Int64?

    /// The number of bytes in the range.
    package var count: Int64 { last - first + 1 }

    /// Parses a `bytes` range; `nil` for anything else, an unsatisfied range (`bytes */1000`) included.
    package init?(_ value: String) {
        let text = value.trimmingCharacters(in: [" ", "\t"])
        guard text.utf8.count > 6, text.prefix(6).lowercased() == "bytes " else { return nil }
        let spec = text.dropFirst(6)
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), first <= last
        else { return nil }
        let complete: Int64?
        if halves[1] == "*" {
            complete = nil
        } else {
            guard let length = Self.number(halves[1]), last < length else { return nil }
            complete = length
        }
        self.first = first
        self.last = last
        self.completeLength = complete
    }

    /// A decimal number of ASCII digits, nothing else.
    static func number(_ text: Substring) -> Int64? {
        guard text.isASCIIDigits else {
            return nil
        }
        return Int64(text)
    }
}
