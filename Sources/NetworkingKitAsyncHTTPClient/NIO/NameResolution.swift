#if AsyncHTTPClientTransport || DemoAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOPosix

/// A connection's name resolution, timed: the resolver that Happy Eyeballs asks for the IPv6 and
/// IPv4 addresses (the system's `getaddrinfo`, or a test's), and how long the answers took, for
/// the DNS phase of ``NIOTransport/RequestTiming``. One per connection attempt.
final class TimedResolution: Resolver, Sendable {
    private let inner: any Resolver & Sendable
    private let marks = LockedState<(start: ContinuousClock.Instant?, pending: Int, took: Duration?)>((nil, 2, nil))

    /// Times `inner`, or the system's resolver on `loop` when there is none.
    init(_ inner: (any Resolver & Sendable)?, on loop: any EventLoop) {
        self.inner = inner ?? SystemResolver(on: loop)
    }

    /// How long resolving took: until both families answered (or failed); `nil` until then.
    var duration: Duration? { marks.withLock { $0.took } }

    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        timed(inner.initiateAQuery(host: host, port: port))
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        timed(inner.initiateAAAAQuery(host: host, port: port))
    }

    func cancelQueries() {
        inner.cancelQueries()
    }

    private func timed(_ query: EventLoopFuture<[SocketAddress]>) -> EventLoopFuture<[SocketAddress]> {
        marks.withLock { $0.start = $0.start ?? .now }
        query.whenComplete { [marks] _ in
            marks.withLock { marks in
                marks.pending -= 1
                if marks.pending == 0, let start = marks.start { marks.took = start.duration(to: .now) }
            }
        }
        return query
    }
}

/// The system's resolver: one `getaddrinfo` for both families, on SwiftNIO's thread pool (it
/// blocks), its answers split into IPv6 and IPv4 addresses. SwiftNIO's own does the same, but is
/// not public, and a resolver given to the bootstrap replaces it.
final class SystemResolver: Resolver, Sendable {
    private struct Addresses {
        var v4: [SocketAddress] = []
        var v6: [SocketAddress] = []
    }

    private let loop: any EventLoop
    private let lookup = LockedState<EventLoopFuture<Addresses>?>(nil)

    init(on loop: any EventLoop) {
        self.loop = loop
    }

    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        addresses(host, port).map(\.v4)
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        addresses(host, port).map(\.v6)
    }

    /// `getaddrinfo` cannot be interrupted; a lookup no longer wanted finishes unread.
    func cancelQueries() {}

    private func addresses(_ host: String, _ port: Int) -> EventLoopFuture<Addresses> {
        lookup.withLock { lookup in
            if let lookup { return lookup }
            let started = NIOThreadPool.singleton.runIfActive(eventLoop: loop) { try Self.resolve(host, port) }
            lookup = started
            return started
        }
    }

    private static func resolve(_ host: String, _ port: Int) throws -> Addresses {
        var hints = addrinfo()
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw SocketAddressError.unknown(host: host, port: port)
        }
        defer { freeaddrinfo(first) }
        var addresses = Addresses()
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            switch info.ai_family {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { addresses.v4.append(SocketAddress($0.pointee, host: host)) }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { addresses.v6.append(SocketAddress($0.pointee, host: host)) }
            default:
                continue
            }
        }
        guard !addresses.v4.isEmpty || !addresses.v6.isEmpty else { throw SocketAddressError.unknown(host: host, port: port) }
        return addresses
    }
}
#endif
