#if DemoAPI
import ArgumentParser
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient

/// Which transport a command sends with.
enum TransportChoice: String, CaseIterable, ExpressibleByArgument {
    /// AsyncHTTPClient, the fast one on Linux and servers.
    case ahc
    /// URLSession (FoundationNetworking on Linux).
    case urlsession
    /// NetworkingKit's own transport on SwiftNIO.
    case nio

    var transport: any HTTPTransport {
        switch self {
        case .ahc: AsyncHTTPClientTransport()
        case .urlsession: URLSessionTransport.shared
        case .nio: NIOTransport.shared
        }
    }

    /// The transport, with `pins` for the host of `url` when there are any.
    func transport(pinning pins: [String], for url: String) throws -> any HTTPTransport {
        guard !pins.isEmpty else { return transport }
        guard let host = URL(string: url)?.host(percentEncoded: false) else {
            throw CLIError.usage("--pin needs a URL with a host")
        }
        let pinned: CertificatePins
        do {
            pinned = try CertificatePins([host: pins])
        } catch let error as NetworkError {
            throw CLIError(error)
        }
        switch self {
        case .ahc: return AsyncHTTPClientTransport(pins: pinned)
        case .urlsession: return URLSessionTransport(pins: pinned)
        // The process ends with the command: the transport's connections close with it.
        case .nio: return NIOTransport(configuration: NIOTransport.Configuration(pins: pinned))
        }
    }

    var displayName: String {
        switch self {
        case .ahc: "AsyncHTTPClient"
        case .urlsession: "URLSession"
        case .nio: "NIOTransport"
        }
    }
}
#endif
