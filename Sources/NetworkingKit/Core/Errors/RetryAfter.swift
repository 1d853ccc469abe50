public import Foundation

/// When a server asks to be called again, from its `Retry-After` header (RFC 9110 §10.2.3).
public enum RetryAfter: Sendable, Hashable, CustomStringConvertible {
    /// A number of seconds from the moment the response was received.
    case seconds(Int)
    /// A point in time.
    case date(Date)

    /// Parses a `Retry-After` value: delay-seconds or an HTTP date; `nil` for anything else.
    public init?(headerValue: String) {
        let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
        if trimmed.isASCIIDigits {
            // A delay too large to represent is still "a very long time", not garbage; capped so
            // that arithmetic on it (to Duration, to Double and back) can never overflow.
            self = .seconds(min(Int(trimmed) ?? Self.maxSeconds, Self.maxSeconds))
        } else if let date = HTTPDate.parse(trimmed) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// The largest number of seconds kept (about 68 years); larger values are capped to it.
    public static let maxSeconds = Int(Int32.max)

    /// The time to wait, counted from `now`; never negative.
    public func delay(from now: Date) -> TimeInterval {
        switch self {
        case .seconds(let seconds):
            return TimeInterval(seconds)
        case .date(let date):
            return max(0, date.timeIntervalSince(now))
        }
    }

    /// `120 s` or the HTTP date.
    public var description: String {
        switch self {
        case .seconds(let seconds): return "\(seconds) s"
        case .date(let date): return HTTPDate.format(date)
        }
    }
}
