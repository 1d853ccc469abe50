import DemoAPI
import Foundation
import NIOSSL
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

/// Pins never leave a call unpinned, on any transport: a pinned host is not called over `http`,
/// and a transport that cannot see the server's certificate refuses the call before sending a
/// byte. The pins checked on a real handshake are in `NIOTransportTests`.
@Suite("Conformance: certificate pinning", .timeLimit(.minutes(3)))
struct CertificatePinningConformanceTests {
    /// The key ByteFaultServer's TLS listener presents: the right pin, still refused where it
    /// cannot be checked.
    private static var serverPin: String {
        get throws {
            try CertificatePins.pin(of: NIOSSLCertificate(bytes: Array(ByteFaultServer.certificatePEM.utf8), format: .pem))
        }
    }

    /// Transports that cannot check pins on this platform.
    static let uncheckingKinds: [TransportKind] = {
        #if canImport(FoundationNetworking)
        [.asyncHTTPClient, .urlSession]
        #else
        [.asyncHTTPClient]
        #endif
    }()

    /// A transport of `kind` with `pins`, shut down (the NIO one) afterwards.
    private static func withTransport(
        _ kind: TransportKind, pins: CertificatePins, _ body: (any HTTPTransport) async throws -> Void
    ) async throws {
        switch kind {
        case .urlSession: try await body(URLSessionTransport(pins: pins))
        case .asyncHTTPClient: try await body(AsyncHTTPClientTransport(pins: pins))
        case .nio:
            let transport = NIOTransport(configuration: NIOTransport.Configuration(pins: pins))
            do {
                try await body(transport)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    /// The ``CertificatePinningUnavailable`` a call failed with, if it did.
    private static func unavailable(_ error: NetworkError?) -> CertificatePinningUnavailable? {
        guard case .transport(let failure)? = error, failure.kind == .secureConnectionFailed else { return nil }
        return failure.underlying as? CertificatePinningUnavailable
    }

    @Test("a pinned host is never called over http; a host the pins do not name is", arguments: TransportKind.allCases)
    func cleartext(kind: TransportKind) async throws {
        let pins = try CertificatePins(["127.0.0.1": [try Self.serverPin], "api.example.com": [try Self.serverPin]])
        try await Self.withTransport(kind, pins: pins) { transport in
            try await ByteFaultServer.withServer { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                let error = await networkError {
                    _ = try await client.send(Request<String>(path: "/anything", method: .post, body: .json(["secret": "value"])))
                }
                let refusal = Self.unavailable(error)
                #expect(refusal?.host == "127.0.0.1", "got \(String(describing: error))")
                #expect(refusal?.reason.contains("http") == true)
                #expect(error?.localizedDescription == "A secure connection to the server could not be established.")
                #expect(server.receivedByteCount == 0)
            }
        }
        let others = try CertificatePins(["api.example.com": [try Self.serverPin]])
        try await Self.withTransport(kind, pins: others) { transport in
            try await ByteFaultServer.withServer { server in
                let answer = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/anything"))
                #expect(answer == "ok")
            }
        }
    }

    @Test(
        "a transport that cannot see the certificate refuses a pinned https host before a byte is sent, even with the right pin",
        arguments: uncheckingKinds)
    func failsClosed(kind: TransportKind) async throws {
        let pins = try CertificatePins(["127.0.0.1": [try Self.serverPin]])
        try await Self.withTransport(kind, pins: pins) { transport in
            try await ByteFaultServer.withServer(tls: true) { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                let error = await networkError { _ = try await client.send(Request<String>(path: "/anything")) }
                let refusal = Self.unavailable(error)
                #expect(refusal?.host == "127.0.0.1", "got \(String(describing: error))")
                #expect(refusal?.reason.contains("no way to check") == true)
                #expect(server.receivedByteCount == 0)
            }
        }
    }
}
