import Foundation
import NetworkingKit
import Testing

@Suite("HTTPDate")
struct HTTPDateTests {
    /// RFC 9110's example instant, Sun, 06 Nov 1994 08:49:37 GMT.
    private static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(
        "RFC 9110 §5.6.7: the three formats a recipient must read, names in any case, whitespace around ignored",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Sun Nov 06 08:49:37 1994",
            " \tSun, 06 Nov 1994 08:49:37 GMT ",
            "SUN, 06 Nov 1994 08:49:37 GMT", "Sun, 06 NOV 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 gMT",
            "sunday, 06-nov-94 08:49:37 gmt", "sun nOV  6 08:49:37 1994",
            // The weekday is not checked against the date (6 Nov 1994 was a Sunday).
            "Mon, 06 Nov 1994 08:49:37 GMT",
        ])
    func parsesEveryFormat(text: String) {
        #expect(HTTPDate.parse(text) == Self.example)
    }

    @Test("an RFC 850 two-digit year is the latest with those digits at most 50 years after now")
    func twoDigitYears() throws {
        let now = try #require(HTTPDate.parse("Sat, 21 Nov 2026 12:00:00 GMT"))
        func year(_ text: String, now: Date = now) throws -> Int {
            Calendar.gmt.component(.year, from: try #require(HTTPDate.parse(text, now: now), "\(text)"))
        }
        #expect(try year("Sunday, 06-Nov-94 08:49:37 GMT") == 1994)
        #expect(try year("Monday, 01-Jan-30 00:00:00 GMT") == 2030)
        #expect(try year("Saturday, 21-Nov-26 00:00:00 GMT") == 2026)
        // The limit is an instant, 50 years after now to the second.
        #expect(try year("Saturday, 21-Nov-76 12:00:00 GMT") == 2076)
        #expect(try year("Saturday, 21-Nov-76 12:00:01 GMT") == 1976)
        // Late in a century, the window reaches into the next one.
        let late = try #require(HTTPDate.parse("Fri, 01 Jun 2090 00:00:00 GMT"))
        #expect(try year("Monday, 01-Jan-20 00:00:00 GMT", now: late) == 2120)
        #expect(try year("Monday, 01-Jan-41 00:00:00 GMT", now: late) == 2041)
        // 2100 has no 29 February; 2000 had one.
        let before2100 = try #require(HTTPDate.parse("Fri, 01 Jun 2060 00:00:00 GMT"))
        #expect(try year("Tuesday, 29-Feb-00 00:00:00 GMT", now: before2100) == 2000)
    }

    @Test(
        "RFC 9110 §5.6.7, RFC 9111 §5.3: not dates: other zones, impossible days and times, wrong shapes",
        arguments: [
            "", "5", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37", "Sun 06 Nov 1994 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 006 Nov 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
            "Tue, 31 Feb 1994 08:49:37 GMT", "Wed, 29 Feb 2023 00:00:00 GMT", "Mon, 01 Jan 1900 00:00:00 GMT extra",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
            "Sun, 06 Nov 1994 08:49 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, ٠٦ Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov 06 08:49:37 94",
            // Each format exactly: one space between parts, a two-digit day (asctime: a padded one).
            "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 06  Nov  1994 08:49:37 GMT", "Sun, 06 Nov 1994  08:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov   6 08:49:37 1994", "Sun Nov  16 08:49:37 1994",
            "Sunday,  06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08.49.37 GMT", "Sun, 06-Nov-1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 AEST", "Sun,\t06 Nov 1994 08:49:37 GMT", "Sunx 06 Nov 1994 08:49:37 GMT",
        ])
    func rejects(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("leap days exist in leap years only")
    func leapDays() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") != nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
    }

    @Test("formats as an IMF-fixdate, whole seconds rounded down, before 1970 too, clamped to years 1 to 9999")
    func formats() {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1e15)) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1e15)) == "Mon, 01 Jan 0001 00:00:00 GMT")
        #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Self.example.addingTimeInterval(0.999)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test("format agrees with Foundation's Gregorian calendar, and parse reads back what format wrote")
    func agreesWithCalendar() throws {
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        // About 2,000 instants from 1901 to 2099, at odd hours and seconds.
        for seconds in stride(from: -2_200_000_000, to: 4_000_000_000, by: 3_100_003) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let parts = Calendar.gmt.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
            let expected = String(
                format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", weekdays[parts.weekday! - 1], parts.day!, months[parts.month! - 1],
                parts.year!, parts.hour!, parts.minute!, parts.second!)
            let text = HTTPDate.format(date)
            #expect(text == expected)
            #expect(HTTPDate.parse(text) == date)
        }
    }

}

extension Calendar {
    fileprivate static let gmt: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar
    }()
}
