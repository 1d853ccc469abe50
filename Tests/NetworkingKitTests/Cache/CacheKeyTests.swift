import Foundation
import HTTPTypes
import Testing

@testable import NetworkingKit

@Suite("Cache key of a URL")
struct CacheKeyTests {
    private func key(_ scheme: String, _ authority: String, _ path: String?) -> String? {
        CachePartition.url(for: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path))
    }

    @Test("scheme and host without case, path and query exactly, no fragment, `/` for no path")
    func normalized() {
        #expect(key("https", "api.example.com", "/v1/films/1?sort=Year") == "https://api.example.com/v1/films/1?sort=Year")
        #expect(key("HTTPS", "API.Example.com:8443", "/V1/Films?Q=A") == "https://api.example.com:8443/V1/Films?Q=A")
        #expect(key("https", "api.example.com", "/a?b=c#Part") == "https://api.example.com/a?b=c")
        #expect(key("https", "api.example.com", "#only-a-fragment") == "https://api.example.com/")
        #expect(key("https", "api.example.com", "") == "https://api.example.com/")
        #expect(key("https", "api.example.com", nil) == "https://api.example.com/")
        #expect(key("https", "BÜCHER.example", "/ä") == "https://bücher.example/ä")
    }

    @Test("a URL and the request for it have the same key")
    func urlAndRequestAgree() throws {
        let url = try #require(URL(string: "https://API.example.com:8443/p/q?x=1#f"))
        #expect(CachePartition.url(for: url) == "https://api.example.com:8443/p/q?x=1")
        #expect(CachePartition.url(for: url) == key("https", "API.example.com:8443", "/p/q?x=1#f"))
    }
}
