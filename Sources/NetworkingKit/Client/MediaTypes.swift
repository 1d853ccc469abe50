/// Matching an answer's `Content-Type` against the media types a call accepts
/// (``RequestOptions/acceptableContentTypes``): `type/subtype` exactly, `type/*`, `*/*`, or a
/// structured-syntax suffix such as `+json` (RFC 6838 §4.2.8: `application/problem+json`).
/// Parameters (`; charset=utf-8`) and letter case do not count.
enum MediaTypes {
    /// Whether `contentType` is one of `accepted`.
    static func accepts(_ contentType: String, _ accepted: [String]) -> Bool {
        let essence = Self.essence(of: contentType)
        guard let slash = essence.firstIndex(of: "/") else { return accepted.contains("*/*") }
        let type = essence[..<slash]
        let subtype = essence[essence.index(after: slash)...]
        for pattern in accepted {
            let pattern = pattern.lowercased()
            if pattern == "*/*" || pattern == essence { return true }
            if pattern.hasPrefix("+"), subtype.hasSuffix(pattern) { return true }
            if pattern.hasSuffix("/*"), pattern.dropLast(2) == type { return true }
        }
        return false
    }

    /// `type/subtype` of a `Content-Type`, lowercased, without parameters or whitespace.
    static func essence(of contentType: String) -> String {
        let beforeParameters = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return beforeParameters.trimmingHTTPWhitespace().lowercased()
    }

    /// What JSON decoders accept: `application/json` and any `+json` type.
    static let json = ["application/json", "+json"]
}
