// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import AsyncHTTPClient
import ExampleServices
import Foundation
import Logging
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import NIOSSL
import Testing

// The Swift samples of NetworkingKitAsyncHTTPClient's DocC catalog page, compiled: each sits
// between `article-sample` markers, exactly as in the page (imports aside), inside a function
// that is compiled but never called (the samples talk to a network), and the test below fails
// when a sample and its copy differ.

private enum AsyncHTTPClientArticleSamples {
    static func overview() async throws {
        // <article-sample>

        let client = LiveAPIClient(
            baseURL: URL(string: "https://api.example.com/v1")!,
            transport: AsyncHTTPClientTransport()
        )
        let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
        // </article-sample>
        _ = films
    }

    static func ownHTTPClient(url: URL) async throws {
        // <article-sample>
        let httpClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.recommendedConfiguration()
        )
        let client = LiveAPIClient(baseURL: url, transport: AsyncHTTPClientTransport(client: httpClient))
        // ...
        try await httpClient.shutdown()
        // </article-sample>
        _ = client
    }

    static func tlsAndProxy(url: URL) throws {
        // <article-sample>
        var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
        configuration.tlsConfiguration?.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile("/etc/ssl/private-ca.pem"))
        configuration.proxy = .server(host: "proxy.internal", port: 3128)
        let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let client = LiveAPIClient(baseURL: url, transport: AsyncHTTPClientTransport(client: httpClient))
        // </article-sample>
        _ = client
        try httpClient.syncShutdown()
    }

    static func nioTransport(url: URL, currentKeyPin: String, backupKeyPin: String, logger: Logger) async throws {
        // <article-sample>
        var configuration = NIOTransport.Configuration()
        configuration.tlsConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile("/etc/ssl/private-ca.pem"))
        configuration.pins = try CertificatePins(["api.example.com": [currentKeyPin, backupKeyPin]])
        configuration.observer = { event in
            if case .requestFinished(let timing) = event, timing.total > .seconds(1) {
                logger.warning("slow call \(timing.requestID): first byte after \(timing.firstByte ?? .zero)")
            }
        }
        let transport = NIOTransport(configuration: configuration)
        let client = LiveAPIClient(baseURL: url, transport: transport)
        // ...
        await transport.shutdown()
        // </article-sample>
        _ = client
    }
}

@Suite("NetworkingKitAsyncHTTPClient page samples")
struct AsyncHTTPClientArticleTests {
    @Test("every Swift sample of NetworkingKitAsyncHTTPClient.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(
            document: "Sources/NetworkingKitAsyncHTTPClient/NetworkingKitAsyncHTTPClient.docc/NetworkingKitAsyncHTTPClient.md",
            droppingImports: true, testFile: #filePath, marker: "article-sample")
    }
}
