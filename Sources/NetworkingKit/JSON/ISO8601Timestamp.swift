import Foundation

/// ISO 8601 timestamps with or without fractional seconds, as most APIs send them, read to the
/// same `Date` Foundation's `ISO8601FormatStyle` parses.
///
/// The common form (`2026-11-28T09:30:00Z`, `2026-11-28T09:30:00.250+01:00`: a four-digit year
/// from 1600, two-digit fields in range, one to nine fractional digits, `Z` or an offset with a
/// colon under 18 hours) is
/// computed here, tens of times faster; anything else is left to Foundation, whose parser is more
/// lenient (any number of digits, fields out of range carried into the next one).
enum ISO8601Timestamp {
    /// The date, with or without fractional seconds, in any form Foundation parses.
    static func parse(_ text: String) -> Date? {
        var text = text
        if let date = text.withUTF8({ common($0) }) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        // Foundation before Swift 6.2 (Apple's older systems) needs to be told about fractions.
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Whether the bytes hold a fraction of a second (Apple's Foundation before Swift 6.2 refuses
    /// one where `JSONDecoder`'s `.iso8601` strategy is concerned).
    static func hasFraction(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count > 19 && bytes[19] == UInt8(ascii: ".")
    }

    /// The common form, or `nil` for anything else.
    static func common(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = bytes.count
        guard count >= 20 else { return nil }
        @inline(__always) func digits(_ at: Int, _ length: Int) -> Int? {
            var value = 0
            for index in at..<(at &+ length) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            // Gregorian years only: before 1583 Foundation's ISO 8601 calendar counts Julian days.
            year >= 1600, (1...12).contains(month), day >= 1, day <= daysIn(month, year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var index = 19
        var nanoseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index &+= 1
            let start = index
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 { index &+= 1 }
            let length = index &- start
            guard length >= 1, length <= 9, let fraction = digits(start, length) else { return nil }
            nanoseconds = fraction
            for _ in length..<9 { nanoseconds &*= 10 }
        }
        var offset = 0
        guard index < count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            guard index &+ 1 == count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index &+ 6 == count, bytes[index &+ 3] == UInt8(ascii: ":"),
                // Within the ±18 hours a `TimeZone` can be; Foundation decides the rest.
                let hours = digits(index &+ 1, 2), let minutes = digits(index &+ 4, 2), hours < 18, minutes < 60
            else { return nil }
            offset = (hours &* 3600 &+ minutes &* 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        // The same roundings, in the same order, as the Gregorian calendar's `date(from:)`: the
        // day's start, plus the time of day with its fraction, minus the offset.
        let days = daysFromCivil(year, month, day) &- 11_323  // 2001-01-01, the reference date
        let timeOfDay = Double(hour &* 3600 &+ minute &* 60 &+ second) + Double(nanoseconds) / 1_000_000_000
        return Date(timeIntervalSinceReferenceDate: Double(days &* 86_400) + timeOfDay - Double(offset))
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
