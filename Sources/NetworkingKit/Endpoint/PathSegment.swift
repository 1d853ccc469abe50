import Foundation

/// Escaping for one path segment, for values that may contain `/`.
///
/// ``APIEndpoint/path`` treats `/` as a separator and leaves valid `%XX` escapes alone, so a value
/// escaped with ``escape(_:)`` passes through exactly once:
///
/// ```swift
/// "/files/\(PathSegment.escape("reports/2024 Q1.pdf"))"   // /files/reports%2F2024%20Q1.pdf
/// ```
public enum PathSegment {
    /// Percent-encodes everything in `value` that is not allowed inside one path segment,
    /// including `/` and `%`.
    public static func escape(_ value: String) -> String {
        PercentEncoding.encodeSegment(value, keepingEscapes: false)
    }
}
