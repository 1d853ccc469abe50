/// Matching an answer's `Content-Type` against the media types a call accepts
/// (``RequestOptions/acceptableContentTypes``): `type/subtype` exactly, `type/*`, `*/*`, or a
/// structured-syntax suffix such as `+json` (RFC 6838 §4.2.8: `application/problem+json`).
/// Parameters (`; charset=utf-8`) and letter case do not count.
///
/// Compared as bytes, without copies: it runs on every decoded answer.
enum MediaTypes {
    /// Whether `contentType` is one of `accepted`; an empty one is no label, and passes, as a
    /// missing one does.
    static func accepts(_ contentType: String, _ accepted: [String]) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            let essence = Self.essence(bytes)
            if essence.isEmpty { return true }
            if isJSON(accepted) { return acceptsJSON(essence) }
            let slash = essence.firstIndex(of: UInt8(ascii: "/"))
            for pattern in accepted {
                var pattern = pattern
                let matched = pattern.withUTF8 { whole -> Bool in
                    // A pattern written with parameters or spaces counts by its type alone.
                    let pattern = Self.essence(whole)
                    if isAnyType(pattern) || equalIgnoringCase(essence, pattern) { return true }
                    guard let slash, let last = pattern.last else { return false }
                    if pattern.first == UInt8(ascii: "+") {
                        let subtype = essence[(slash + 1)...]
                        return subtype.count > pattern.count && equalIgnoringCase(subtype.suffix(pattern.count), pattern)
                    }
                    if last == UInt8(ascii: "*"), pattern.count >= 2, pattern[pattern.endIndex - 2] == UInt8(ascii: "/") {
                        return equalIgnoringCase(essence[..<slash], pattern[..<(pattern.endIndex - 2)])
                    }
                    return false
                }
                if matched { return true }
            }
            return false
        }
    }

    /// `type/subtype` of a `Content-Type`: before any `;`, without spaces or tabs around it.
    private static func essence(_ bytes: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var start = bytes.startIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return bytes[start..<end]
    }

    /// Whether `accepted` is ``json``, what JSON decoders accept: nearly every call.
    static func isJSON(_ accepted: [String]) -> Bool {
        accepted.count == 2 && accepted[0] == json[0] && accepted[1] == json[1]
    }

    /// ``accepts(_:_:)`` for ``json``, without reading the patterns: `application/json`, or a
    /// subtype ending in `+json`.
    private static func acceptsJSON(_ essence: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        ("application/json" as StaticString).withUTF8Buffer { json in
            if equalIgnoringCase(essence, json[...]) { return true }
            // `type/x+json`: a slash, at least one byte of subtype, then `+json`.
            let plus = essence.endIndex - 5
            guard essence.count > 6, let slash = essence.firstIndex(of: UInt8(ascii: "/")), slash < plus - 1,
                essence[plus] == UInt8(ascii: "+")
            else { return false }
            return equalIgnoringCase(essence[(plus + 1)...], json[(json.endIndex - 4)...])
        }
    }

    /// Whether `pattern` is `*/*`.
    private static func isAnyType(_ pattern: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        pattern.count == 3 && pattern[pattern.startIndex] == UInt8(ascii: "*") && pattern[pattern.startIndex + 1] == UInt8(ascii: "/")
            && pattern[pattern.startIndex + 2] == UInt8(ascii: "*")
    }

    /// ASCII letters compared without regard to case.
    private static func equalIgnoringCase(
        _ left: Slice<UnsafeBufferPointer<UInt8>>, _ right: Slice<UnsafeBufferPointer<UInt8>>
    ) -> Bool {
        guard left.count == right.count else { return false }
        var (l, r) = (left.startIndex, right.startIndex)
        while l < left.endIndex {
            guard lower(left[l]) == lower(right[r]) else { return false }
            l += 1
            r += 1
        }
        return true
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// What JSON decoders accept: `application/json` and any `+json` type.
    static let json = ["application/json", "+json"]

    /// The `Accept` value for `accepted`: the types that are media ranges (`+json` is not one),
    /// or `*/*` when none is.
    static func acceptValue(for accepted: [String]) -> String {
        let ranges = accepted.filter { $0.contains("/") }
        return ranges.isEmpty ? "*/*" : ranges.joined(separator: ", ")
    }
}
