public import Foundation

/// Parses and formats HTTP dates (RFC 9110 §5.6.7), as `Retry-After`, `Date`, `Expires` and
/// `Last-Modified` carry them.
///
/// Done by hand: the cache reads a stored response's `Date` on every lookup, and a
/// `DateFormatter` (made per call, since it is not `Sendable`) cost tens of microseconds there
/// on Linux. The grammar is small and fixed, always GMT.
public enum HTTPDate {
    private static let shortDays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let longDays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses an HTTP date, or returns `nil` when `string` is not one.
    ///
    /// Accepts the three formats recipients must (RFC 9110 §5.6.7), each exactly as its grammar
    /// spells it, one space between parts: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the
    /// obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`, whose one-digit day is padded with a space). Names are read
    /// without regard to case (`THU`, `aug`, `gmt`), as a lenient recipient should; whitespace
    /// around the value is ignored. Anything else (runs of spaces, another zone, a two-digit year
    /// in an IMF-fixdate, a one-digit hour, an impossible date such as `31 Feb`) is not a date,
    /// which callers treat as RFC 9110 says: an `Expires` in the past, a `Retry-After` ignored.
    /// The weekday is not checked against the date.
    ///
    /// An RFC 850 two-digit year is the latest year with those digits at most 50 years from now.
    public static func parse(_ string: String) -> Date? {
        parse(string, now: Date())
    }

    /// Parses an HTTP date as ``parse(_:)`` does, reading an RFC 850 two-digit year against `now`.
    /// - Parameters:
    ///   - string: The header value.
    ///   - now: The instant an RFC 850 two-digit year is read against: the year is the latest
    ///     one with those digits that is at most 50 years after `now`.
    public static func parse(_ string: String, now: Date) -> Date? {
        let trimmed = string.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let end = trimmed.lastIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard let end else { return nil }
        let parts = Substring(trimmed[...end]).split(separator: " ", omittingEmptySubsequences: false)
        let seconds: Int?
        switch parts.count {
        case 6 where parts[0].hasSuffix(","): seconds = imfFixdate(parts)?.secondsSince1970
        case 4: seconds = rfc850(parts, now: now)
        case 5, 6: seconds = asctime(parts)?.secondsSince1970
        default: seconds = nil
        }
        return seconds.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// Formats a date as an IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (whole seconds, rounded
    /// down; a date outside the years 1 to 9999, which the format cannot hold, is clamped to them).
    public static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.isFinite ? Int(min(max(interval, -62_135_596_800), 253_402_300_799).rounded(.down)) : 0
        let days = floorDivide(seconds, 86_400)
        let secondsOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekday = shortDays[positiveModulo(days + 4, 7)]  // 1970-01-01 was a Thursday
        let yearText = String(year)
        return "\(weekday), \(twoDigits(day)) \(months[month - 1]) "
            + String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + " \(twoDigits(secondsOfDay / 3600)):\(twoDigits(secondsOfDay % 3600 / 60)):\(twoDigits(secondsOfDay % 60)) GMT"
    }

    // MARK: - The three formats

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ parts: [Substring]) -> Fields? {
        guard parts[0].hasSuffix(","), name(parts[0].dropLast(), in: shortDays) != nil, name(parts[5], in: ["GMT"]) != nil,
            let day = number(parts[1], digits: 2...2), let month = month(parts[2]), let year = number(parts[3], digits: 4...4)
        else { return nil }
        return Fields(year: year, month: month, day: day, time: parts[4])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`, in seconds since 1970.
    private static func rfc850(_ parts: [Substring], now: Date) -> Int? {
        guard parts[0].hasSuffix(","), name(parts[0].dropLast(), in: longDays) != nil, name(parts[3], in: ["GMT"]) != nil
        else { return nil }
        let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, let day = number(date[0], digits: 2...2), let month = month(date[1]),
            let twoDigitYear = number(date[2], digits: 2...2), abs(now.timeIntervalSince1970) < 1e15
        else { return nil }
        // RFC 9110: an instant more than 50 years ahead is in the latest past year with those
        // digits. So the year is the latest one with those digits not past that 50-year limit.
        let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
        let nowDays = floorDivide(nowSeconds, 86_400)
        let today = civilDate(daysSince1970: nowDays)
        let limitYear = today.year + 50
        let limitDay = min(today.day, daysIn(month: today.month, year: limitYear))
        let limit = daysSince1970(year: limitYear, month: today.month, day: limitDay) * 86_400 + (nowSeconds - nowDays * 86_400)
        let year = limitYear - positiveModulo(limitYear - twoDigitYear, 100)
        // A 29 Feb that this year lacks (2100) may exist a century earlier (2000).
        if let seconds = Fields(year: year, month: month, day: day, time: parts[2]).secondsSince1970, seconds <= limit {
            return seconds
        }
        return Fields(year: year - 100, month: month, day: day, time: parts[2]).secondsSince1970
    }

    /// `Sun Nov  6 08:49:37 1994` or `Sun Nov 16 08:49:37 1994`: a one-digit day follows two
    /// spaces (an empty part), a two-digit day one.
    private static func asctime(_ parts: [Substring]) -> Fields? {
        let padded = parts.count == 6
        guard name(parts[0], in: shortDays) != nil, let month = month(parts[1]), !padded || parts[2].isEmpty,
            let day = number(parts[padded ? 3 : 2], digits: padded ? 1...1 : 2...2),
            let year = number(parts[padded ? 5 : 4], digits: 4...4)
        else { return nil }
        return Fields(year: year, month: month, day: day, time: parts[padded ? 4 : 3])
    }

    /// A date's parts as read, checked when turned into seconds.
    private struct Fields {
        let year: Int
        let month: Int
        let day: Int
        let time: Substring

        var secondsSince1970: Int? {
            let clock = time.split(separator: ":", omittingEmptySubsequences: false)
            guard clock.count == 3, let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
                let second = number(clock[2], digits: 2...2),
                hour < 24, minute < 60, second <= 60,  // 60: a leap second
                (1...daysIn(month: month, year: year)).contains(day)
            else { return nil }
            return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        }
    }

    // MARK: - Pieces

    /// A decimal number of `digits` ASCII digits, nothing else.
    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count) else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte.isASCIIDigit else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// 1 to 12 for `Jan` to `Dec`, in any case.
    private static func month(_ text: Substring) -> Int? {
        name(text, in: months).map { $0 + 1 }
    }

    /// The index of `text` in `names` (ASCII letters), compared without regard to case.
    private static func name(_ text: Substring, in names: [String]) -> Int? {
        names.firstIndex { name in
            // `| 0x20` lower-cases an ASCII letter; a name holds letters only, so no other byte
            // can fold onto one of its bytes.
            name.utf8.count == text.utf8.count && zip(name.utf8, text.utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func positiveModulo(_ value: Int, _ divisor: Int) -> Int {
        (value % divisor + divisor) % divisor
    }

    // Howard Hinnant's days-from-civil and civil-from-days (proleptic Gregorian calendar).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
