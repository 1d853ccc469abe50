import Foundation
import Testing

@testable import NetworkingKit

/// RFC 6265 §5.3 (what a `Set-Cookie` stores) and §5.4 (what a request carries), on the pure
/// store, with a fixed "now".
@Suite("Cookie storage model")
struct CookieStoreTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A store that received `fields`, in order, from `url`.
    static func store(_ fields: [String], from url: String, limits: CookieJar.Limits = .init()) -> (CookieStore, [CookieStore.Outcome]) {
        var store = CookieStore(limits: limits)
        let target = CookieTarget(URL(string: url)!)!
        let outcomes = fields.map { field in
            store.store(SetCookie(field)!, from: target, now: now, publicSuffixes: .builtIn)
        }
        return (store, outcomes)
    }

    /// The `Cookie` header a request to `url` would carry.
    static func header(_ store: inout CookieStore, for url: String, at time: Date = now) -> String {
        store.cookies(for: CookieTarget(URL(string: url)!)!, now: time).map(\.pair).joined(separator: "; ")
    }

    /// One `Set-Cookie` from one URL, and the header each later URL gets.
    struct Case: Sendable, CustomTestStringConvertible {
        let setCookie: String
        let from: String
        let sends: [String: String]
        var testDescription: String { "\(setCookie) from \(from)" }
    }

    static let cases: [Case] = [
        // Host-only without Domain: the host alone, no subdomain.
        Case(
            setCookie: "a=1", from: "https://example.com/",
            sends: ["https://example.com/x": "a=1", "https://www.example.com/": "", "https://example.org/": ""]),
        // Domain: the domain and its subdomains, not a sibling or a look-alike.
        Case(
            setCookie: "a=1; Domain=example.com", from: "https://www.example.com/",
            sends: [
                "https://example.com/": "a=1", "https://api.example.com/": "a=1", "https://badexample.com/": "",
            ]),
        // Path: the default is the request's folder; a path covers the paths under it.
        Case(
            setCookie: "a=1", from: "https://example.com/app/login",
            sends: [
                "https://example.com/app": "a=1", "https://example.com/app/x": "a=1", "https://example.com/": "",
                "https://example.com/application": "",
            ]),
        Case(
            setCookie: "a=1; Path=/", from: "https://example.com/app/login",
            sends: ["https://example.com/": "a=1", "https://example.com/other": "a=1"]),
        // Secure: https only.
        Case(
            setCookie: "a=1; Secure", from: "https://example.com/",
            sends: ["https://example.com/": "a=1", "http://example.com/": ""]),
        // Not secure: both schemes, any port (cookies do not isolate by port).
        Case(
            setCookie: "a=1", from: "http://example.com:8080/",
            sends: ["https://example.com/": "a=1", "http://example.com:9090/": "a=1"]),
        // IP hosts: host-only, exact.
        Case(
            setCookie: "a=1; Domain=127.0.0.1", from: "http://127.0.0.1:8080/",
            sends: ["http://127.0.0.1/": "a=1", "http://localhost/": ""]),
        // A public suffix that is the host itself (localhost) is host-only.
        Case(
            setCookie: "a=1; Domain=localhost", from: "http://localhost/",
            sends: ["http://localhost/": "a=1", "http://sub.localhost/": ""]),
        // The query is not part of the path.
        Case(
            setCookie: "a=1", from: "https://example.com/a/b?next=/x/y",
            sends: ["https://example.com/a/c": "a=1", "https://example.com/x": ""]),
        // Host names are compared in lowercase.
        Case(
            setCookie: "a=1; Domain=EXAMPLE.com", from: "https://WWW.Example.com/",
            sends: ["https://www.example.com/": "a=1", "https://Example.COM/": "a=1"]),
    ]

    @Test("what one Set-Cookie stores, and which requests carry it", arguments: cases)
    func storesAndSends(testCase: Case) throws {
        var (store, outcomes) = Self.store([testCase.setCookie], from: testCase.from)
        guard case .stored = outcomes[0] else {
            Issue.record("not stored: \(outcomes[0])")
            return
        }
        for (url, header) in testCase.sends {
            #expect(Self.header(&store, for: url) == header, "to \(url)")
        }
    }

    static let refusals: [(String, String, CookieStore.Refusal)] = [
        ("a=1; Domain=com", "https://example.com/", .publicSuffix("com")),
        ("a=1; Domain=co.uk", "https://example.co.uk/", .publicSuffix("co.uk")),
        ("a=1; Domain=github.io", "https://user.github.io/", .publicSuffix("github.io")),
        ("a=1; Domain=example.org", "https://example.com/", .domainMismatch("example.org")),
        ("a=1; Domain=www.example.com", "https://example.com/", .domainMismatch("www.example.com")),
        ("a=1; Domain=0.0.1", "http://127.0.0.1/", .domainMismatch("0.0.1")),
        ("a=1; Domain=127.0.0.2", "http://127.0.0.1/", .domainMismatch("127.0.0.2")),
        ("a=1; Secure", "http://example.com/", .secureFromInsecureOrigin),
        ("a=1; SameSite=None", "https://example.com/", .sameSiteNoneWithoutSecure),
        ("__Secure-a=1", "https://example.com/", .prefix("__Secure-")),
        ("__secure-a=1", "https://example.com/", .prefix("__Secure-")),
        ("__Host-a=1; Secure", "https://example.com/app/x", .prefix("__Host-")),
        ("__Host-a=1; Secure; Path=/; Domain=example.com", "https://example.com/", .prefix("__Host-")),
        ("__Host-a=1; Path=/", "https://example.com/", .prefix("__Host-")),
        ("__Host-x", "https://example.com/", .prefix("__Host-")),
        // The path must be written out, not defaulted to /.
        ("__Host-a=1; Secure", "https://example.com/login", .prefix("__Host-")),
    ]

    @Test("cookies the storage model refuses", arguments: refusals)
    func refused(field: String, url: String, refusal: CookieStore.Refusal) {
        let (store, outcomes) = Self.store([field], from: url)
        #expect(outcomes == [.refused(refusal)])
        #expect(store.cookies.isEmpty)
    }

    @Test("prefixed cookies that keep their rules are stored")
    func prefixesKept() {
        let (store, outcomes) = Self.store(
            ["__Secure-a=1; Secure; Domain=example.com", "__Host-b=2; Secure; Path=/", "c=1; SameSite=None; Secure"],
            from: "https://www.example.com/x/y")
        #expect(outcomes.allSatisfy { if case .stored = $0 { true } else { false } })
        #expect(store.cookies.count == 3)
    }

    @Test("http may not shadow a secure cookie of the same name (RFC 6265bis)")
    func leaveSecureCookiesAlone() {
        var store = CookieStore(limits: .init())
        let secure = CookieTarget(URL(string: "https://example.com/")!)!
        let plain = CookieTarget(URL(string: "http://www.example.com/")!)!
        _ = store.store(SetCookie("sid=good; Secure; Domain=example.com")!, from: secure, now: Self.now, publicSuffixes: .builtIn)
        let outcome = store.store(SetCookie("sid=evil; Path=/")!, from: plain, now: Self.now, publicSuffixes: .builtIn)
        #expect(outcome == .refused(.overwritesSecureCookie))
        // Nor delete it.
        let deletion = store.store(SetCookie("sid=; Max-Age=0")!, from: plain, now: Self.now, publicSuffixes: .builtIn)
        #expect(deletion == .refused(.overwritesSecureCookie))
        #expect(store.cookies.values.map(\.value) == ["good"])
        // Another name is fine, and https may replace it.
        guard case .stored = store.store(SetCookie("theme=dark")!, from: plain, now: Self.now, publicSuffixes: .builtIn) else {
            Issue.record("another name was not stored")
            return
        }
        guard
            case .stored(let replaced) = store.store(
                SetCookie("sid=new; Secure; Domain=example.com")!, from: secure, now: Self.now, publicSuffixes: .builtIn)
        else {
            Issue.record("https could not replace its secure cookie")
            return
        }
        #expect(replaced.value == "new")
    }

    @Test("paths and domains are compared byte by byte: a Kelvin sign is no K, and nothing traps")
    func unicodeEquivalence() {
        var (store, outcomes) = Self.store(["a=1; Path=/\u{212A}", "b=1; Domain=\u{212A}.example.com"], from: "https://example.com/")
        #expect(outcomes[1] == .refused(.domainMismatch("\u{212A}.example.com".lowercased())))
        #expect(Self.header(&store, for: "https://example.com/Kx") == "")
        #expect(Self.header(&store, for: "https://example.com/K") == "")
        #expect(CookieMatching.path("/\u{212A}", matches: "/K") == false)
        #expect(CookieMatching.path("/K", matches: "/\u{212A}") == false)
        #expect(CookieMatching.host("k.example.com", matchesDomain: "\u{212A}.example.com") == false)
    }

    @Test("a cookie of the same name, domain and path replaces the old one and keeps its creation time")
    func replaces() throws {
        var store = CookieStore(limits: .init())
        let target = CookieTarget(URL(string: "https://example.com/")!)!
        _ = store.store(SetCookie("a=1")!, from: target, now: Self.now, publicSuffixes: .builtIn)
        let later = Self.now.addingTimeInterval(60)
        let outcome = store.store(SetCookie("a=2")!, from: target, now: later, publicSuffixes: .builtIn)
        guard case .stored(let cookie) = outcome else { throw CookieTestError.notStored }
        #expect(cookie.value == "2")
        #expect(cookie.created == Self.now)
        #expect(store.cookies.count == 1)
        // Another path is another cookie.
        _ = store.store(SetCookie("a=3; Path=/x")!, from: target, now: later, publicSuffixes: .builtIn)
        #expect(store.cookies.count == 2)
    }

    @Test("Max-Age wins over Expires in either order, and a lifetime is capped at 400 days")
    func expiry() throws {
        let (store, _) = Self.store(
            [
                "a=1; Max-Age=60; Expires=Wed, 01 Jan 2031 00:00:00 GMT",
                "b=1; Expires=Wed, 01 Jan 2031 00:00:00 GMT; Max-Age=60",
                "c=1; Expires=Wed, 01 Jan 2031 00:00:00 GMT",
                "d=1; Max-Age=999999999",
                "e=1",
            ], from: "https://example.com/")
        let byName = Dictionary(uniqueKeysWithValues: store.cookies.values.map { ($0.name, $0) })
        #expect(byName["a"]?.expires == Self.now.addingTimeInterval(60))
        #expect(byName["b"]?.expires == Self.now.addingTimeInterval(60))
        #expect(byName["c"]?.expires == Self.now.addingTimeInterval(CookieStore.longestLifetime))
        #expect(byName["d"]?.expires == Self.now.addingTimeInterval(CookieStore.longestLifetime))
        #expect(byName["e"]?.expires == nil)
        #expect(byName["e"]?.isPersistent == false)
    }

    @Test("an expired cookie deletes the one it names; Max-Age=0 and a past Expires both do")
    func deletion() {
        var (store, outcomes) = Self.store(
            ["a=1", "b=1", "a=; Max-Age=0", "b=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT", "c=1; Max-Age=-1"],
            from: "https://example.com/")
        #expect(outcomes[2] == .deleted(removedExisting: true))
        #expect(outcomes[3] == .deleted(removedExisting: true))
        #expect(outcomes[4] == .deleted(removedExisting: false))
        #expect(Self.header(&store, for: "https://example.com/") == "")
    }

    @Test("cookies expire with time, and are sent until then")
    func expiresWithTime() {
        var (store, _) = Self.store(["a=1; Max-Age=60"], from: "https://example.com/")
        #expect(Self.header(&store, for: "https://example.com/", at: Self.now.addingTimeInterval(59)) == "a=1")
        #expect(Self.header(&store, for: "https://example.com/", at: Self.now.addingTimeInterval(60)) == "")
        #expect(store.cookies.isEmpty)
    }

    @Test("the header lists longer paths first, then older cookies first; a nameless cookie is its value")
    func order() {
        var store = CookieStore(limits: .init())
        let target = CookieTarget(URL(string: "https://example.com/a/b/c")!)!
        for (index, field) in ["root=1; Path=/", "deep=1; Path=/a/b", "mid=1; Path=/a", "token", "older=1; Path=/a"].enumerated() {
            _ = store.store(SetCookie(field)!, from: target, now: Self.now.addingTimeInterval(Double(index)), publicSuffixes: .builtIn)
        }
        // "token" got the default path /a/b, and is younger than deep.
        #expect(Self.header(&store, for: "https://example.com/a/b/c") == "deep=1; token; mid=1; older=1; root=1")
    }

    @Test("limits: per domain and in total, the least recently used go first, never the one just set")
    func limits() {
        var store = CookieStore(limits: .init(perDomain: 3, total: 5))
        let a = CookieTarget(URL(string: "https://a.example/")!)!
        let b = CookieTarget(URL(string: "https://b.example/")!)!
        for (index, field) in ["a0=1", "a1=1; Path=/q", "a2=1; Path=/q"].enumerated() {
            _ = store.store(SetCookie(field)!, from: a, now: Self.now.addingTimeInterval(Double(index)), publicSuffixes: .builtIn)
        }
        // A request to / carries a0 alone: a1 is now the least recently used of a.example.
        _ = store.cookies(for: a, now: Self.now.addingTimeInterval(10))
        _ = store.store(SetCookie("a3=1")!, from: a, now: Self.now.addingTimeInterval(11), publicSuffixes: .builtIn)
        #expect(Set(store.cookies.values.filter { $0.domain == "a.example" }.map(\.name)) == ["a0", "a2", "a3"])
        for index in 0..<3 {
            _ = store.store(
                SetCookie("b\(index)=1")!, from: b, now: Self.now.addingTimeInterval(Double(20 + index)), publicSuffixes: .builtIn)
        }
        #expect(store.cookies.count == 5)
        // The total limit took the least recently used of all: a2, last used when it was set.
        #expect(Set(store.cookies.values.map(\.name)) == ["a0", "a3", "b0", "b1", "b2"])
    }

    @Test("the limit per site counts every subdomain of a registrable domain together")
    func limitPerSite() {
        var store = CookieStore(limits: .init(perDomain: 2, total: 100))
        for (index, host) in ["a.example.co.uk", "b.example.co.uk", "c.example.co.uk", "other.co.uk"].enumerated() {
            let target = CookieTarget(URL(string: "https://\(host)/")!)!
            _ = store.store(
                SetCookie("n\(index)=1")!, from: target, now: Self.now.addingTimeInterval(Double(index)), publicSuffixes: .builtIn)
        }
        #expect(Set(store.cookies.values.map(\.name)) == ["n1", "n2", "n3"])
        #expect(PublicSuffixList.builtIn.registrableDomain("a.b.example.co.uk") == "example.co.uk")
        #expect(PublicSuffixList.builtIn.registrableDomain("co.uk") == "co.uk")
        #expect(PublicSuffixList.builtIn.registrableDomain("127.0.0.1") == "127.0.0.1")
    }

    @Test("a limit of zero keeps nothing, and says so")
    func zeroLimit() {
        let (store, outcomes) = Self.store(["a=1"], from: "https://example.com/", limits: .init(perDomain: 0))
        #expect(outcomes == [.refused(.overLimit)])
        #expect(store.cookies.isEmpty)
    }
}

enum CookieTestError: Error {
    case notStored
}
