import AsyncHTTPClient
import DemoAPI
import Foundation
import NIOSSL
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

/// What is particular to the AsyncHTTPClient transport: the clients it sends with.
@Suite("AsyncHTTPClient transport", .timeLimit(.minutes(3)))
struct AsyncHTTPClientTransportTests {
    @Test("a client whose TLS configuration trusts a private root reaches a server with that certificate; the default refuses it")
    func privateRoot() async throws {
        try await ByteFaultServer.withServer(tls: true) { server in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(ByteFaultServer.certificatePEM.utf8)))
            var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
            configuration.tlsConfiguration = tls
            let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            do {
                let trusting = LiveAPIClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport(client: httpClient))
                #expect(try await trusting.send(Request<String>(path: "/anything")) == "ok")
                let plain = LiveAPIClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport())
                let error = await networkError { _ = try await plain.send(Request<String>(path: "/anything")) }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            } catch {
                try await httpClient.shutdown()
                throw error
            }
            try await httpClient.shutdown()
        }
    }

    @Test("a client of the caller's is used as given and left to its owner to shut down")
    func callersClient() async throws {
        let httpClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.recommendedConfiguration())
        do {
            try await withDemoServer { server in
                let transport = AsyncHTTPClientTransport(client: httpClient)
                #expect(transport.client === httpClient)
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                let echo: Echo = try await client.send(Request(path: "/redirect/302", query: [URLQueryItem(name: "to", value: "/echo")]))
                #expect(echo.path == "/echo")
            }
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        // The transport did not shut it down: shutting down here succeeds (a second shutdown would throw).
        try await httpClient.shutdown()
    }

    @Test("a client that follows redirects itself is reported, since it bypassed the RedirectPolicy")
    func clientThatFollowsRedirects() async throws {
        try await withDemoServer { server in
            let client = LiveAPIClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport(client: .shared))
            let error = await networkError {
                try await client.send(Request<Void>(path: "/redirect/302", query: [URLQueryItem(name: "to", value: "/echo")]))
            }
            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("redirectConfiguration: .disallow"))
            // Without a redirect, the shared client is fine.
            try await client.send(Request<Void>(path: "/status/204"))
        }
    }
}
