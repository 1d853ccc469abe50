#if DemoAPI
import ArgumentParser
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

    var displayName: String {
        switch self {
        case .ahc: "AsyncHTTPClient"
        case .urlsession: "URLSession"
        case .nio: "NIOTransport"
        }
    }
}
#endif
