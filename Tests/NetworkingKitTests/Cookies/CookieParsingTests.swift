import Foundation
import Testing

@testable import NetworkingKit

/// RFC 6265 §5.1.1 (dates) and §5.2 (the `Set-Cookie` parser), case by case.
@Suite("Cookie parsing")
struct CookieParsingTests {
    /// Seconds since 1970 of a UTC date.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    static let dates: [(String, Date?)] = [
        // The three HTTP date formats.
        ("Sun, 06 Nov 1994 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)),
        ("Sun Nov  6 08:49:37 1994", utc(1994, 11, 6, 8, 49, 37)),
        // What servers send besides: any order, any delimiters, any case, one-digit fields.
        ("Wed, 09-JUN-2021 10:18:14 GMT", utc(2021, 6, 9, 10, 18, 14)),
        ("09 June 2021 10:18:14", utc(2021, 6, 9, 10, 18, 14)),
        ("2021 Jun 9 1:2:3", utc(2021, 6, 9, 1, 2, 3)),
        ("Thu, 01 Jan 1970 00:00:00 GMT", utc(1970, 1, 1)),
        ("Sun, 06 Nov 1994 08:49:37 GMT+0100", utc(1994, 11, 6, 8, 49, 37)),
        // Two-digit years: 70-99 are 19xx, 00-69 are 20xx.
        ("01-Jan-69 00:00:00", utc(2069, 1, 1)),
        ("01-Jan-70 00:00:00", utc(1970, 1, 1)),
        ("01-Jan-00 00:00:00", utc(2000, 1, 1)),
        ("29 Feb 2024 12:00:00", utc(2024, 2, 29, 12)),
        // Failures: a part missing, out of range, a day the month lacks, before 1601, too many digits.
        ("Sun, 06 Nov 1994", nil),
        ("Sun, 06 1994 08:49:37 GMT", nil),
        ("29 Feb 2023 12:00:00", nil),
        ("31 Apr 2024 00:00:00", nil),
        ("32 Jan 2024 00:00:00", nil),
        ("01 Jan 2024 24:00:00", nil),
        ("01 Jan 2024 23:60:00", nil),
        ("01 Jan 2024 23:59:60", nil),
        ("01 Jan 1600 00:00:00", nil),
        ("01 Jan 12024 00:00:00", nil),
        ("001 Jan 2024 00:00:00", nil),
        // ":" is no delimiter: a log file's "1994:08:49:37" is a year, and the time is missing.
        ("06/Nov/1994:08:49:37", nil),
        ("", nil),
        ("tomorrow", nil),
    ]

    @Test("Expires dates by §5.1.1", arguments: dates)
    func cookieDates(text: String, expected: Date?) {
        #expect(CookieDate.parse(text) == expected, "\(text)")
    }

    @Test("name and value: split at the first =, whitespace trimmed, quotes kept")
    func nameAndValue() throws {
        let cookie = try #require(SetCookie(" sid = \"abc=def\" ; Path=/"))
        #expect(cookie.name == "sid")
        #expect(cookie.value == "\"abc=def\"")
        #expect(cookie.path == "/")
    }

    @Test("a field without = is a cookie with an empty name (RFC 6265bis)")
    func nameless() throws {
        let cookie = try #require(SetCookie("token123; Secure"))
        #expect(cookie.name == "")
        #expect(cookie.value == "token123")
        #expect(cookie.isSecure)
    }

    @Test(
        "fields that are ignored whole",
        arguments: [
            "=", " = ; Path=/", "a=b\u{0}c", "a=b\rSet-Cookie: x=y", "a\n=b", "a=\u{7F}",
            "a=" + String(repeating: "v", count: 4096),
        ])
    func ignored(field: String) {
        #expect(SetCookie(field) == nil)
    }

    @Test("split at the byte ;, not at a character equivalent to it, nor missed before a combining mark")
    func separatorsAreBytes() throws {
        let greekQuestionMark = try #require(SetCookie("a=b\u{037E} Secure"))
        #expect(greekQuestionMark.value == "b\u{037E} Secure")
        #expect(!greekQuestionMark.isSecure)
        let combining = try #require(SetCookie("a=b;\u{301}Secure; HttpOnly"))
        #expect(combining.value == "b")
        #expect(combining.isHTTPOnly)
    }

    @Test("a tab is allowed, and 4096 bytes of name and value are")
    func limits() throws {
        #expect(SetCookie("a=b\tc") != nil)
        #expect(SetCookie("a=" + String(repeating: "v", count: 4094)) != nil)
        // An attribute value over 1024 bytes is ignored, not the cookie.
        let cookie = try #require(SetCookie("a=b; Path=/" + String(repeating: "p", count: 1024)))
        #expect(cookie.path == nil)
    }

    @Test("attributes: names in any case, the last of each wins, unknown ones ignored")
    func attributes() throws {
        let cookie = try #require(
            SetCookie(
                "a=b; DOMAIN=.Example.COM; path=/x; Path=/y; secure; HTTPONLY; SameSite=strict; Priority=High; Max-Age=10; max-age=20"))
        #expect(cookie.domain == "example.com")
        #expect(cookie.path == "/y")
        #expect(cookie.isSecure)
        #expect(cookie.isHTTPOnly)
        #expect(cookie.sameSite == .strict)
        #expect(cookie.maxAge == 20)
    }

    static let maxAges: [(String, Int?)] = [
        ("Max-Age=0", 0), ("Max-Age=-5", -5), ("Max-Age=3600", 3600), ("Max-Age=+5", nil), ("Max-Age=5s", nil),
        ("Max-Age=", nil), ("Max-Age=1.5", nil), ("Max-Age=99999999999999999999999", Int.max),
        ("Max-Age=-99999999999999999999999", Int.min), ("Max-Age=10; Max-Age=oops", 10),
    ]

    @Test("Max-Age: digits with an optional minus, else ignored", arguments: maxAges)
    func maxAge(attribute: String, expected: Int?) throws {
        let cookie = try #require(SetCookie("a=b; \(attribute)"))
        #expect(cookie.maxAge == expected)
    }

    @Test("Expires: a date that does not parse is ignored, an earlier valid one stays")
    func expires() throws {
        let cookie = try #require(SetCookie("a=b; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Expires=soon"))
        #expect(cookie.expires == Self.utc(2021, 6, 9, 10, 18, 14))
    }

    @Test("Domain: empty is ignored, the leading dot removed, lowercased")
    func domain() throws {
        #expect(try #require(SetCookie("a=b; Domain=")).domain == nil)
        #expect(try #require(SetCookie("a=b; Domain=example.com; Domain=")).domain == "example.com")
        #expect(try #require(SetCookie("a=b; Domain=..x.org")).domain == ".x.org")
    }

    @Test("Path: one that does not start with / means the default path")
    func path() throws {
        #expect(try #require(SetCookie("a=b; Path=/x; Path=x")).path == nil)
        #expect(try #require(SetCookie("a=b; Path=")).path == nil)
    }

    @Test("SameSite: Strict, Lax, None in any case; anything else is unspecified")
    func sameSite() throws {
        #expect(try #require(SetCookie("a=b; SameSite=LAX")).sameSite == .lax)
        #expect(try #require(SetCookie("a=b; SameSite=none")).sameSite == Cookie.SameSite.none)
        #expect(try #require(SetCookie("a=b; SameSite=maybe")).sameSite == .unspecified)
        #expect(try #require(SetCookie("a=b; SameSite")).sameSite == .unspecified)
        #expect(try #require(SetCookie("a=b")).sameSite == nil)
    }
}

/// Foundation joins repeated `Set-Cookie` fields with commas; the URLSession transport splits them
/// back.
@Suite("Folded Set-Cookie fields")
struct FoldedSetCookieTests {
    static let cases: [(String, [String])] = [
        ("a=1", ["a=1"]),
        ("a=1; Path=/, b=2", ["a=1; Path=/", "b=2"]),
        (
            "a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT, b=2; Expires=Thu, 10 Jun 2021 10:18:14 GMT; Secure",
            ["a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT", "b=2; Expires=Thu, 10 Jun 2021 10:18:14 GMT; Secure"]
        ),
        ("a=1,b=2,  c=3", ["a=1", "b=2", "c=3"]),
        ("a=1, , b=2", ["a=1, ", "b=2"].map { $0.trimmingCharacters(in: .whitespaces) }),
        ("token, b=2", ["token", "b=2"]),
        ("a=x, y", ["a=x, y"]),
        // A value with a comma breaks the rules (RFC 6265 §4.1.1), and is split like two cookies:
        // the first loses the attributes. A limit of the URLSession transport, documented.
        ("prefs=a,b=c; Secure", ["prefs=a", "b=c; Secure"]),
    ]

    @Test("split where a name and = follow a comma, never inside a date", arguments: cases)
    func split(folded: String, cookies: [String]) {
        #expect(FoldedSetCookie.split(folded) == cookies)
    }
}
