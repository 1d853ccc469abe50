// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

// The Swift samples of the "Cookies, Basic authentication and other everyday features" article,
// compiled: each sits between `article-sample` markers, exactly as in the article, and the test
// below fails when they differ.

private struct Profile: Decodable, Sendable {
    let username: String
}

private enum EverydayFeaturesSamples {
    static func cookies(supportDirectory: URL, apiURL: URL, credentials: [String: String]) async throws {
        // <article-sample>
        let jar = try CookieJar(contentsOf: supportDirectory.appending(path: "cookies.json"))
        let client = LiveAPIClient(configuration: .init(
            baseURL: apiURL,
            middlewares: [LoggingMiddleware(), jar, HTTPCache(storage: MemoryCacheStorage()), RetryMiddleware()]
        ))
        try await client.send(Request<Void>(path: "/cookies/login", method: .post, body: .json(credentials)))
        let me = try await client.send(Request<Profile>(path: "/cookies/me"))   // the session cookie goes along
        // </article-sample>
        _ = me
    }

    static func inspect(jar: CookieJar, apiURL: URL) async throws {
        // <article-sample>
        for cookie in jar.cookies(for: apiURL) {
            print(cookie)                    // session (api.example.com/, HttpOnly, SameSite=lax, expires 2026-12-01T10:00:00Z)
        }
        try await jar.removeAll { $0.domain.hasSuffix("example.com") }   // sign out
        // </article-sample>
    }

    static func basic(apiURL: URL) throws {
        // <article-sample>
        let basic = try BasicAuthentication(username: "woody", password: "andy")
        let client = LiveAPIClient(configuration: .init(baseURL: apiURL, middlewares: [basic]))
        // </article-sample>
        _ = client
    }

    static func parameters(client: LiveAPIClient) async throws {
        // <article-sample>
        struct Search: Encodable, Sendable {
            var title: String
            var years: [Int]
            var includeShorts = false
        }
        let query = try URLQueryEncoder(arrays: .brackets).encode(Search(title: "Toy Story", years: [1995, 1999]))
        let films = try await client.send(Request<[PixarFilm]>(path: "/films", query: query))
        // /films?include_shorts=false&title=Toy%20Story&years%5B%5D=1995&years%5B%5D=1999

        let receipt = try await client.send(Request<Data>(path: "/search", method: .post, body: .form(Search(title: "Up", years: []))))
        // </article-sample>
        _ = (films, receipt)
    }

    static func compression(client: LiveAPIClient, logFile: URL) async throws {
        // <article-sample>
        var options = RequestOptions()
        options.requestCompression = .gzip
        let upload = try await client.upload(.file(logFile), to: Request<Data>(path: "/upload", method: .put, options: options))
        // </article-sample>
        _ = upload
    }

    static func mediaTypes() {
        // <article-sample>
        var options = RequestOptions()
        options.acceptableContentTypes = ["application/json", "text/javascript"]
        // </article-sample>
        _ = options
    }

    static func pinning(apiURL: URL, currentKeyPin: String, backupKeyPin: String) throws {
        // <article-sample>
        let pins = try CertificatePins(
            ["api.example.com": [currentKeyPin, backupKeyPin]],
            expiry: Date(timeIntervalSince1970: 1_893_456_000))  // 2030-01-01
        let client = LiveAPIClient(baseURL: apiURL, transport: URLSessionTransport(pins: pins))
        // </article-sample>
        _ = client
    }

    static func timing(client: LiveAPIClient) async throws {
        // <article-sample>
        let response = try await client.response(Request<[PixarFilm]>(path: "/films"))
        if let timing = response.timing, let firstByte = timing.firstByte {
            print("first byte after \(firstByte), last after \(timing.lastByte ?? firstByte)")
        }
        // </article-sample>
    }
}

@Suite("Cookies and everyday features article samples")
struct CookiesAndEverydayFeaturesArticleTests {
    @Test("every Swift sample of CookiesAndEverydayFeatures.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(
            document: "Sources/NetworkingKit/NetworkingKit.docc/CookiesAndEverydayFeatures.md", testFile: #filePath,
            marker: "article-sample")
    }

    @Test("the query the parameters sample shows is the one sent")
    func parametersQuery() async throws {
        struct Search: Encodable, Sendable {
            var title: String
            var years: [Int]
            var includeShorts = false
        }
        let (client, transport) = makeClient()
        let query = try URLQueryEncoder(arrays: .brackets).encode(Search(title: "Toy Story", years: [1995, 1999]))
        try await client.send(Request<Void>(path: "/films", query: query))
        #expect(transport.requests.first?.url?.query == "include_shorts=false&title=Toy%20Story&years%5B%5D=1995&years%5B%5D=1999")
    }
}
