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
        try await Self.withTrustingTransport { transport in
            try await ByteFaultServer.withServer(tls: true) { server in
                let answer = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/anything"))
                #expect(answer == "ok")
                let plain = LiveAPIClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport())
                let error = await networkError { _ = try await plain.send(Request<String>(path: "/anything")) }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            }
        }
    }

    /// Runs `body` with a transport on the recommended configuration that trusts ByteFaultServer's
    /// certificates (a private root, as a server behind a private authority has), and shuts its
    /// client down afterwards.
    private static func withTrustingTransport(_ body: (AsyncHTTPClientTransport) async throws -> Void) async throws {
        var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
        let roots = ByteFaultServer.certificatePEM + "\n" + ByteFaultServer.anotherHostCertificatePEM
        configuration.tlsConfiguration?.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(roots.utf8)))
        try await withHTTPClient(configuration) { try await body(AsyncHTTPClientTransport(client: $0)) }
    }

    @Test("TLS 1.2 is the least the recommended configuration accepts: a server that speaks only 1.0 and 1.1 is secureConnectionFailed")
    func tlsMinimum() async throws {
        #expect(AsyncHTTPClientTransport.recommendedConfiguration().tlsConfiguration?.minimumTLSVersion == .tlsv12)
        try await Self.withTrustingTransport { transport in
            try await ByteFaultServer.withServer(tls: true) { server in
                let answer = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/"))
                #expect(answer == "ok")
            }
            try await ByteFaultServer.withServer(tls: true, legacyTLSOnly: true) { server in
                let error = await networkError {
                    _ = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/"))
                }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            }
        }
    }

    @Test("a trusted certificate for another host name is secureConnectionFailed, not other")
    func hostnameMismatch() async throws {
        try await Self.withTrustingTransport { transport in
            try await ByteFaultServer.withServer(tls: true, certificateForAnotherHost: true) { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                let error = await networkError { _ = try await client.send(Request<String>(path: "/")) }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            }
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
