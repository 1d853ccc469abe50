import Foundation
import NetworkingKit
import Testing

@Suite("HTTPDate")
struct HTTPDateTests {
    /// RFC 9110's example instant, Sun, 06 Nov 1994 08:49:37 GMT.
    private static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test("the three formats a recipient must read", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "Sun Nov 6 08:49:37 1994",
        "  Sun,  06 Nov 1994   08:49:37 GMT ",
    ])
    func parsesEveryFormat(text: String) {
        #expect(HTTPDate.parse(text) == Self.example)
    }

    @Test("an RFC 850 two-digit year is at most 50 years ahead, else the century before")
    func twoDigitYears() throws {
        let year = Calendar.gmt.component(.year, from: Date())
        let near = (year + 50) % 100
        let far = (year + 51) % 100
        let nearDate = try #require(HTTPDate.parse("Monday, 01-Jan-\(twoDigits(near)) 00:00:00 GMT"))
        let farDate = try #require(HTTPDate.parse("Monday, 01-Jan-\(twoDigits(far)) 00:00:00 GMT"))
        #expect(Calendar.gmt.component(.year, from: nearDate) == year + 50)
        #expect(Calendar.gmt.component(.year, from: farDate) == year + 51 - 100)
    }

    @Test("not dates: other zones, impossible days and times, wrong shapes", arguments: [
        "", "5", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37", "Sun 06 Nov 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Tue, 31 Feb 1994 08:49:37 GMT", "Wed, 29 Feb 2023 00:00:00 GMT", "Mon, 01 Jan 1900 00:00:00 GMT extra",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, ٠٦ Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov 06 08:49:37 94",
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

    @Test("formats as an IMF-fixdate, whole seconds rounded down, before 1970 too")
    func formats() {
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

    private func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension Calendar {
    fileprivate static let gmt: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar
    }()
}
