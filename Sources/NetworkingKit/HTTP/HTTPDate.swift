public import Foundation

/// Parses and formats HTTP dates (RFC 9110 §5.6.7), as `Retry-After`, `Date`, `Expires` and
/// `Last-Modified` carry them.
public enum HTTPDate {
    // Recipients must accept all three historical formats (RFC 9110 §5.6.7); senders use the first.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // obsolete RFC 850
        "EEE MMM d HH:mm:ss yyyy",  // obsolete asctime, spaces collapsed
    ]

    /// Parses an HTTP date, or returns `nil` when `string` is not one.
    public static func parse(_ string: String) -> Date? {
        // asctime pads a one-digit day with a second space (`Nov  6`).
        let trimmed = string.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            if let date = formatter(format).date(from: trimmed) {
                return date
            }
        }
        return nil
    }

    /// Formats a date as an IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        formatter(formats[0]).string(from: date)
    }

    // DateFormatter is not safe to share across threads on every platform; a fresh one per call
    // costs microseconds, and these dates are parsed once per response at most.
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
