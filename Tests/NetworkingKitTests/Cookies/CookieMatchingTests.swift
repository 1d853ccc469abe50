import Foundation
import Testing

@testable import NetworkingKit

/// RFC 6265 §5.1.3 (domain matching), §5.1.4 (paths) and the Public Suffix List's algorithm.
@Suite("Cookie matching")
struct CookieMatchingTests {
    static let domains: [(host: String, domain: String, matches: Bool)] = [
        ("example.com", "example.com", true),
        ("www.example.com", "example.com", true),
        ("a.b.example.com", "example.com", true),
        ("badexample.com", "example.com", false),
        ("example.com", "www.example.com", false),
        ("example.com.evil.org", "example.com", false),
        ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "0.0.1", false),
        ("1.127.0.0.1", "0.0.1", true),  // not an address: five labels
        ("::1", "1", false),
    ]

    @Test("domain-match", arguments: domains)
    func domainMatch(host: String, domain: String, matches: Bool) {
        #expect(CookieMatching.host(host, matchesDomain: domain) == matches, "\(host) in \(domain)")
    }

    static let paths: [(request: String, cookie: String, matches: Bool)] = [
        ("/", "/", true), ("/a", "/", true), ("/a/b", "/a", true), ("/a/b", "/a/", true), ("/a", "/a", true),
        ("/ab", "/a", false), ("/a", "/a/", false), ("/", "/a", false), ("/A", "/a", false),
    ]

    @Test("path-match", arguments: paths)
    func pathMatch(request: String, cookie: String, matches: Bool) {
        #expect(CookieMatching.path(request, matches: cookie) == matches, "\(request) under \(cookie)")
    }

    static let defaultPaths: [(String, String)] = [
        ("", "/"), ("/", "/"), ("/a", "/"), ("/a/", "/a"), ("/a/b", "/a"), ("/a/b/c.html", "/a/b"), ("a/b", "/"),
    ]

    @Test("default-path", arguments: defaultPaths)
    func defaultPath(path: String, expected: String) {
        #expect(CookieMatching.defaultPath(path) == expected)
    }

    @Test("hosts are compared lowercased, without IPv6 brackets or a trailing dot")
    func canonicalHost() {
        #expect(CookieMatching.canonicalHost("WWW.Example.COM.") == "www.example.com")
        #expect(CookieMatching.canonicalHost("[::1]") == "::1")
        #expect(CookieMatching.isIPAddress("10.0.0.255"))
        #expect(!CookieMatching.isIPAddress("10.0.0.256"))
        #expect(!CookieMatching.isIPAddress("10.0.0"))
        #expect(CookieMatching.isIPAddress("fe80::1"))
    }

    static let suffixes: [(String, Bool)] = [
        ("com", true), ("example.com", false), ("co.uk", true), ("example.co.uk", false), ("github.io", true),
        ("user.github.io", false), ("localhost", true), ("nosuchtld", true), ("ck", true), ("anything.ck", true),
        ("www.ck", false), ("a.www.ck", false), ("xn--55qx5d.cn", true), ("x.kawasaki.jp", true), ("kawasaki.jp", false),
        ("city.kawasaki.jp", false), ("", false), ("a..com", false),
    ]

    @Test("the built-in Public Suffix List: rules, wildcards, exceptions, the default rule", arguments: suffixes)
    func publicSuffix(domain: String, isSuffix: Bool) {
        #expect(PublicSuffixList.builtIn.isPublicSuffix(domain) == isSuffix, "\(domain)")
    }

    @Test("a list of the app's own replaces the built-in one")
    func ownList() {
        let list = PublicSuffixList(rules: "// comment\n\ncorp\n*.example\n!www.test.example\n")
        #expect(list.isPublicSuffix("corp"))
        #expect(!list.isPublicSuffix("a.corp"))
        #expect(list.isPublicSuffix("test.example"))
        #expect(!list.isPublicSuffix("www.test.example"))
        #expect(list.isPublicSuffix("com"))  // the default rule: every top-level domain
        #expect(PublicSuffixList.builtInSource.contains("publicsuffix"))
    }
}
