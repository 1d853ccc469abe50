#if AsyncHTTPClientTransport || DemoAPI
import Foundation
public import HTTPTypes
public import NIOCore
public import NIOPosix
public import NIOSSL
public import NetworkingKit

extension NIOTransport {
    /// How a ``NIOTransport`` connects: its event loops, TLS, pins, pool limits and observer.
    public struct Configuration: Sendable {
        /// The event loops connections run on; SwiftNIO's process-wide group by default.
        public var eventLoopGroup: any EventLoopGroup
        /// TLS for `https`: the platform's trusted roots and TLS 1.2 at the least by default. Set
        /// `trustRoots` for private roots, `certificateChain` and `privateKey` for a client
        /// certificate.
        public var tlsConfiguration: TLSConfiguration
        /// Public keys pinned per host, checked after the system's verification.
        public var pins: CertificatePins
        /// The most connections open at once to one origin (scheme, host and port); a request
        /// past it waits for one to be free, within its timeout.
        public var maximumConnectionsPerOrigin: Int
        /// How long an unused connection stays open for the next request.
        public var idleTimeout: Duration
        /// The longest a connection may take to open (TCP and TLS), within the call's timeout.
        public var connectTimeout: Duration
        /// Whether `gzip` and `deflate` bodies are asked for and decoded, as they are read.
        public var decodesContent: Bool
        /// Told of every connection event and of each request's timing, on the transport's own
        /// threads (an event loop, a timer): keep it short, and never block in it.
        public var observer: (@Sendable (Event) -> Void)?
        /// The names' resolver, for tests: SwiftNIO's (the system's `getaddrinfo`) when `nil`.
        var resolver: (any Resolver & Sendable)?

        /// A configuration; every parameter has the default a server or an app usually wants.
        public init(
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
            tlsConfiguration: TLSConfiguration = Configuration.defaultTLS, pins: CertificatePins = .none,
            maximumConnectionsPerOrigin: Int = 64, idleTimeout: Duration = .seconds(60), connectTimeout: Duration = .seconds(10),
            decodesContent: Bool = true, observer: (@Sendable (Event) -> Void)? = nil
        ) {
            self.eventLoopGroup = eventLoopGroup
            self.tlsConfiguration = tlsConfiguration
            self.pins = pins
            self.maximumConnectionsPerOrigin = max(1, maximumConnectionsPerOrigin)
            self.idleTimeout = idleTimeout
            self.connectTimeout = connectTimeout
            self.decodesContent = decodesContent
            self.observer = observer
        }

        /// The platform's trusted roots, TLS 1.2 at the least (RFC 8996 retires 1.0 and 1.1),
        /// HTTP/1.1 only.
        public static var defaultTLS: TLSConfiguration {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.minimumTLSVersion = .tlsv12
            tls.applicationProtocols = ["http/1.1"]
            return tls
        }
    }

    /// Where a connection goes: the pool it belongs to.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        /// Whether the connection speaks TLS (`https`).
        public let isSecure: Bool
        /// The host, as the URL names it (an IPv6 address without brackets).
        public let host: String
        /// The port.
        public let port: Int

        public var description: String { "\(isSecure ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    /// What a ``NIOTransport`` reports to its ``Configuration/observer``.
    public enum Event: Sendable {
        /// A connection opened (and, for `https`, finished its handshake).
        case connectionOpened(ConnectionInfo)
        /// A connection closed, by either side, idle or not.
        case connectionClosed(ConnectionInfo)
        /// An informational answer (`1xx`, but `101`) arrived before the final one.
        case informationalResponse(HTTPResponse.Status, requestID: String)
        /// A request's answer was read to its end, or failed: its timing.
        case requestFinished(RequestTiming)
    }

    /// One connection, as events name it.
    public struct ConnectionInfo: Sendable, Hashable {
        /// A number unique within the process.
        public let id: Int
        /// The origin it connects to.
        public let origin: Origin
        /// The address it connected to, once known.
        public let remoteAddress: String?
    }

    /// Where the time of one request went, each phase measured from the request's start.
    public struct RequestTiming: Sendable, Hashable {
        /// The call's request id (``/NetworkingKit/RequestContext/requestID``).
        public let requestID: String
        /// The connection it was sent on.
        public let connection: ConnectionInfo?
        /// Whether that connection had carried a request before (no connect, no handshake).
        public let reusedConnection: Bool
        /// Waiting for a free connection when the origin's limit was reached.
        public let waitedForConnection: Duration
        /// Resolving the name: until the system's resolver (`getaddrinfo`) answered for both
        /// address families; `nil` on a reused connection, or when the connection was made before
        /// both had answered. Part of ``connect``.
        public let dns: Duration?
        /// Resolving the name and opening the TCP connection (Happy Eyeballs, both address
        /// families raced); `nil` on a reused connection.
        public let connect: Duration?
        /// The TLS handshake, pins checked; `nil` without TLS or on a reused connection.
        public let tlsHandshake: Duration?
        /// Until the request's last byte was handed to the socket with a flush, from the
        /// request's start (a body larger than the socket's buffer is still leaving then);
        /// `nil` when it never was (the call ended first). A write promise would date the last
        /// byte exactly, for about 5% more instructions per request.
        public let requestSent: Duration?
        /// Until the response head arrived (time to first byte), from the request's start.
        public let firstByte: Duration?
        /// Until the last byte of the answer arrived, or the request failed.
        public let total: Duration
        /// Whether the answer was read to its end.
        public let succeeded: Bool
    }
}
#endif
