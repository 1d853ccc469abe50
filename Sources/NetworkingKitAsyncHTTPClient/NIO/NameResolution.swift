#if AsyncHTTPClientTransport || DemoAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
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

/// The system's resolver: one `getaddrinfo` for both families, off the event loop (it blocks),
/// its answers split into IPv6 and IPv4 addresses. SwiftNIO's own does the same, but is not
/// public, and a resolver given to the bootstrap replaces it.
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
            let promise = loop.makePromise(of: Addresses.self)
            // Dispatch's pool, as SwiftNIO's resolver uses: not NIOThreadPool.singleton, which an
            // app may have turned off (NIOSingletons).
            DispatchQueue.global().async { promise.completeWith(Result { try Self.resolve(host, port) }) }
            lookup = promise.futureResult
            return promise.futureResult
        }
    }

    private static func resolve(_ host: String, _ port: Int) throws -> Addresses {
        var hints = addrinfo()
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = NIOBSDSocket.OptionLevel.tcp.rawValue
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else {
            throw NameResolutionFailure(host: host, code: code, reason: code == 0 ? "no address" : String(cString: gai_strerror(code)))
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
        guard !addresses.v4.isEmpty || !addresses.v6.isEmpty else { throw NameResolutionFailure(host: host, code: 0, reason: "no address") }
        return addresses
    }
}

/// A name the system's resolver could not resolve, with its `getaddrinfo` code (`EAI_NONAME`
/// for no such host, `EAI_AGAIN` for a resolver that did not answer in time).
struct NameResolutionFailure: Error, CustomStringConvertible {
    let host: String
    let code: Int32
    let reason: String

    var description: String { "cannot resolve \(host): \(reason) (getaddrinfo \(code))" }
}
#endif
