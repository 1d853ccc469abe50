import Foundation

/// The date of a cookie's `Expires` attribute, read by the algorithm of RFC 6265 §5.1.1: far more
/// lenient than an HTTP date, because servers have sent every format there is. The string is cut
/// into tokens at delimiters; the first token that looks like a time, a day of the month, a month
/// and a year, in that order of preference, is taken for each; a two-digit year is 1970-2069.
enum CookieDate {
    /// The instant `string` names, or `nil` when the algorithm fails (a part missing or out of
    /// range, a day the month does not have, a year before 1601).
    static func parse(_ string: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?
        for token in string[...].utf8.split(whereSeparator: isDelimiter) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if dayOfMonth == nil, let found = Self.digits(token, count: 1...2) {
                dayOfMonth = found
            } else if month == nil, let found = Self.month(token) {
                month = found
            } else if year == nil, let found = Self.digits(token, count: 2...4) {
                year = found
            }
        }
        guard let time, let dayOfMonth, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, (1...31).contains(dayOfMonth), time.hour <= 23, time.minute <= 59, time.second <= 59,
            dayOfMonth <= HTTPDate.daysIn(month: month, year: year)
        else { return nil }
        let days = HTTPDate.daysSince1970(year: year, month: month, day: dayOfMonth)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `count` digits at the start of `token`, then a non-digit and anything, or the end:
    /// `1*2DIGIT ( non-digit *OCTET )`, as the day of the month and the year are written.
    private static func digits(_ token: Substring.UTF8View.SubSequence, count: ClosedRange<Int>) -> Int? {
        digitRun(token[...], count: count)?.value
    }

    private static func digitRun(_ token: Substring.UTF8View.SubSequence, count: ClosedRange<Int>)
        -> (value: Int, rest: Substring.UTF8View.SubSequence)?
    {
        var value = 0
        var length = 0
        var index = token.startIndex
        while index < token.endIndex, isDigit(token[index]), length < count.upperBound {
            value = value * 10 + Int(token[index] - 0x30)
            length += 1
            index = token.index(after: index)
        }
        // More digits than allowed is not a shorter number followed by a digit.
        guard length >= count.lowerBound, index == token.endIndex || !isDigit(token[index]) else { return nil }
        return (value, token[index...])
    }

    /// `hms-time ( non-digit *OCTET )`, where `hms-time = time-field ":" time-field ":" time-field`
    /// and a field is one or two digits.
    private static func time(_ token: Substring.UTF8View.SubSequence) -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = digitRun(token, count: 1...2), hour.rest.first == UInt8(ascii: ":"),
            let minute = digitRun(hour.rest.dropFirst(), count: 1...2), minute.rest.first == UInt8(ascii: ":"),
            let second = digitRun(minute.rest.dropFirst(), count: 1...2)
        else { return nil }
        return (hour.value, minute.value, second.value)
    }

    /// `month = ( "jan" / "feb" / ... / "dec" ) *OCTET`, without regard to case.
    private static func month(_ token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).map { $0 | 0x20 }
        return monthNames.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static let monthNames: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { Array($0.utf8) }
}
