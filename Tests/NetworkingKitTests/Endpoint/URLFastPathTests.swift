import Foundation
import HTTPTypes
import Testing

@testable import NetworkingKit

/// The client joins a request relative to its base URL from the base's parts
/// (`URLBuilder.request`); it must be the very request the full path (`URLBuilder.url`, then
/// `HTTPRequest(method:url:)`) gives.
@Suite("URL building: the relative fast path")
struct URLFastPathTests {
    @Test(
        "the joined request equals the one built from a full URL",
        arguments: [
            "https://api.example.com", "https://api.example.com/", "https://api.example.com/v1/",
            "HTTPS://API.Example.COM:8443/v1", "http://127.0.0.1:08080/v1", "http://127.0.0.1:8080/base%20path/",
            "http://[::1]:9000/v1", "https://user:secret@api.example.com/v1", "https://api.example.com/v1?key=abc",
            "https://api.example.com/v1?", "https://api.example.com/v1#fragment", "https://api.example.com/a%2Fb/",
        ],
        ["/", "v2", "/v2/", "v2/sub", "v2?x=1"])
    func fastPathMatchesFullPath(base: String, endpointBase: String) throws {
        let baseURL = try #require(URL(string: base))
        let parsed = try #require(ParsedBaseURL(baseURL))
        let endpointBaseURL = try #require(URL(string: endpointBase))
        let queries: [[URLQueryItem]?] = [nil, [URLQueryItem(name: "q", value: "a b&c=d"), URLQueryItem(name: "flag", value: nil)]]
        for path in ["", "/", "films", "/films/", "films/toy story/ü", "/a/../b", "%41%2F"] {
            for query in queries {
                let joined = try #require(
                    URLBuilder.request(
                        method: .get, base: parsed, endpointBase: endpointBaseURL, path: path, queryItems: query,
                        headerFields: [:]))
                let url = try URLBuilder.url(clientBase: baseURL, endpointBase: endpointBaseURL, path: path, queryItems: query)
                let full = HTTPRequest(method: .get, url: url)
                #expect(joined.scheme == full.scheme, "\(base) \(endpointBase) \(path)")
                #expect(joined.authority == full.authority, "\(base) \(endpointBase) \(path)")
                #expect(joined.path == full.path, "\(base) \(endpointBase) \(path)")
            }
        }
    }

    @Test("each segment of a joined path is encoded on its own, dot segments included")
    func segmentsEncoded() throws {
        let base = try #require(URL(string: "https://api.example.com/v1"))
        let parsed = try #require(ParsedBaseURL(base))
        let relative = try #require(URL(string: "/"))
        let segments = [
            "films", "1", ".", "..", "...", ".a", "a.", "%41", "%zz", "toy story", "ü", "a:b@c", "!$&'()*+,;=", "~-._", "a?b", "#",
        ]
        for segment in segments {
            let request = try #require(
                URLBuilder.request(
                    method: .get, base: parsed, endpointBase: relative, path: "/x/\(segment)/y", queryItems: nil, headerFields: [:]))
            #expect(request.path == "/v1/x/" + PercentEncoding.encodeSegment(segment, keepingEscapes: true) + "/y", "\(segment)")
        }
    }

    @Test("an absolute path or endpoint base is left to the full path")
    func absoluteIsNotJoined() throws {
        let base = try #require(URL(string: "https://api.example.com/v1"))
        let parsed = try #require(ParsedBaseURL(base))
        let relative = try #require(URL(string: "/"))
        let absolute = try #require(URL(string: "https://cdn.example.com/assets"))
        #expect(
            URLBuilder.request(
                method: .get, base: parsed, endpointBase: relative, path: "https://other.example.com/x", queryItems: nil, headerFields: [:])
                == nil)
        #expect(
            URLBuilder.request(method: .get, base: parsed, endpointBase: absolute, path: "/logo.png", queryItems: nil, headerFields: [:])
                == nil)
    }
}
