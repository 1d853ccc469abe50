#if AsyncHTTPClientTransport || DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The connections of one ``NIOTransport``, per origin: reused while they stay open, opened up to
/// the origin's limit, waited for past it. Each origin's ``ConnectionPoolState`` decides, behind
/// one lock; this opens, hands over and closes.
final class NIOConnectionPool: Sendable {
    typealias Waiter = CheckedContinuation<ConnectionPoolState<HTTP1Connection, Void>.Grant, any Error>
    typealias OriginState = ConnectionPoolState<HTTP1Connection, Waiter>

    private struct State {
        var origins: [NIOTransport.Origin: OriginState] = [:]
        var nextID = 0
        var isShutDown = false
    }

    let configuration: NIOTransport.Configuration
    /// TLS for every `https` connection, made once, when the first one opens: loading the
    /// trusted roots costs about 24 million instructions, which a transport that only speaks
    /// `http` should not pay.
    private let tls = LockedState<Result<NIOSSLContext, any Error>?>(nil)
    private let state = LockedState(State())
    /// The event loops of the configuration's group.
    private let loops: Set<ObjectIdentifier>

    init(configuration: NIOTransport.Configuration) {
        self.configuration = configuration
        loops = Set(configuration.eventLoopGroup.makeIterator().map(ObjectIdentifier.init))
    }

    /// The event loop the caller runs on, when it is one of the pool's (a task on a
    /// ``NIOTransport/LoopExecutor``): its connections are preferred, and new ones open on it.
    private var callersLoop: (any EventLoop)? {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop, loops.contains(ObjectIdentifier(loop)) else { return nil }
        return loop
    }

    /// A connection to `origin`, reused when one is idle, within `deadline`.
    func connection(
        to origin: NIOTransport.Origin, deadline: ContinuousClock.Instant, marks: inout HTTP1Exchange.TimingMarks
    ) async throws -> HTTP1Connection {
        let loop = callersLoop
        let isPreferred: (HTTP1Connection) -> Bool = { loop == nil || $0.channel.eventLoop === loop }
        while true {
            let immediate = try state.withLock { state -> OriginState.Lease? in
                guard !state.isShutDown else { throw Self.shutDownError }
                return state.origins[origin, default: OriginState(limit: configuration.maximumConnectionsPerOrigin)].lease(
                    preferring: isPreferred)
            }
            let grant: ConnectionPoolState<HTTP1Connection, Void>.Grant
            switch immediate {
            case .use(let connection): grant = .use(connection)
            case .connect: grant = .connect
            case .wait, nil:
                let start = ContinuousClock.now
                grant = try await wait(for: origin, deadline: deadline)
                marks.waited += start.duration(to: .now)
            }
            switch grant {
            case .use(let connection):
                // Closed by the server while idle, its close not yet seen: forget it, take another.
                guard connection.isOpen else {
                    closed(connection)
                    continue
                }
                marks.reused = true
                return connection
            case .connect:
                do {
                    return try await open(origin, on: loop, deadline: deadline, marks: &marks)
                } catch {
                    let next = state.withLock { $0.origins[origin]?.connectFailed() }
                    next.map { Self.grant($0.1, to: $0.0) }
                    throw error
                }
            }
        }
    }

    /// Throws when the pool has been shut down: a connection it does not count (a WebSocket's)
    /// is not opened after that either.
    func refuseIfShutDown() throws {
        try state.withLock { state in
            if state.isShutDown { throw Self.shutDownError }
        }
    }

    /// Waits until the origin has a connection or room for one, within `deadline`.
    private func wait(
        for origin: NIOTransport.Origin, deadline: ContinuousClock.Instant
    ) async throws -> ConnectionPoolState<HTTP1Connection, Void>.Grant {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return UInt64(state.nextID)
        }
        let cancelWait: @Sendable (any Error) -> Void = { [self] error in
            state.withLock { $0.origins[origin]?.cancelWait(id: id) }?.resume(throwing: error)
        }
        let timer = LockedState<DeadlineWatch.Ticket?>(nil)
        defer { timer.withLock { $0 }.map(DeadlineWatch.shared.disarm) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let lease = state.withLock { state -> OriginState.Lease? in
                    guard !state.isShutDown else { return nil }
                    return state.origins[origin, default: OriginState(limit: configuration.maximumConnectionsPerOrigin)]
                        .lease(waiter: continuation, id: id)
                }
                switch lease {
                case nil: continuation.resume(throwing: Self.shutDownError)
                case .use(let connection): continuation.resume(returning: .use(connection))
                case .connect: continuation.resume(returning: .connect)
                case .wait:
                    let ticket = DeadlineWatch.shared.arm(at: deadline) { cancelWait(DeadlineExceeded()) }
                    timer.withLock { $0 = ticket }
                    if Task.isCancelled { cancelWait(CancellationError()) }
                }
            }
        } onCancel: {
            cancelWait(CancellationError())
        }
    }

    /// Opens a connection to `origin` (TCP, then TLS with pins) on `loop`, or the group's next
    /// event loop, and counts it in.
    private func open(
        _ origin: NIOTransport.Origin, on loop: (any EventLoop)?, deadline: ContinuousClock.Instant, marks: inout HTTP1Exchange.TimingMarks
    ) async throws -> HTTP1Connection {
        let channel = try await openChannel(to: origin, on: loop, deadline: deadline, marks: &marks)
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let info = NIOTransport.ConnectionInfo(id: id, origin: origin, remoteAddress: channel.remoteAddress?.description)
        let observer = configuration.observer
        let connection: HTTP1Connection
        do {
            connection = try await channel.eventLoop.submit { [self] in
                // Gone when the connection closed since it became ready.
                let handler = try channel.pipeline.syncOperations.handler(type: HTTP1ClientHandler.self)
                let connection = HTTP1Connection(
                    info: info, channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), pool: self,
                    observer: observer)
                handler.connection = connection
                return connection
            }.get()
        } catch {
            try? await channel.close()
            throw ChannelError.ioOnClosedChannel
        }
        state.withLock { $0.origins[origin]?.connected(connection) }
        observer?(.connectionOpened(info))
        channel.closeFuture.whenComplete { [self] _ in
            closed(connection)
            observer?(.connectionClosed(info))
        }
        return connection
    }

    /// A channel to `origin` made ready (TCP, then TLS with pins), with the HTTP/1.1 codec and an
    /// ``HTTP1ClientHandler`` in its pipeline, not counted in the pool: what ``open(_:on:deadline:marks:)``
    /// pools, and what a WebSocket upgrade takes for itself. DNS, connect and TLS go in `marks`.
    func openChannel(
        to origin: NIOTransport.Origin, on loop: (any EventLoop)?, deadline: ContinuousClock.Instant,
        marks: inout HTTP1Exchange.TimingMarks
    ) async throws -> any Channel {
        let sslContext: NIOSSLContext?
        if origin.isSecure {
            do {
                // Made outside the lock (connections opening meanwhile do not wait on it); the
                // first one made is kept.
                let made = tls.withLock { $0 } ?? Result { try NIOSSLContext(configuration: configuration.tlsConfiguration) }
                sslContext = try tls.withLock { tls in
                    if tls == nil { tls = made }
                    return tls ?? made
                }.get()
            } catch {
                throw NetworkError.transport(TransportFailure(kind: .secureConnectionFailed, underlying: error))
            }
        } else {
            sslContext = nil
        }
        let remaining = ContinuousClock.now.duration(to: deadline)
        let connectTimeout = min(remaining, configuration.connectTimeout)
        // The connect timeout bounds the TLS handshake too.
        let readiness = HTTP1ClientHandler.Readiness(
            tlsHost: origin.isSecure ? origin.host : nil, pins: configuration.pins,
            deadline: NIODeadline(min(deadline, ContinuousClock.now + configuration.connectTimeout)),
            idleTimeout: TimeAmount(configuration.idleTimeout))
        // A host name goes in the TLS server name; an address does not (the certificate must name it).
        let serverName = origin.isSecure && !Self.isAddress(origin.host) ? origin.host : nil
        // Happy Eyeballs may open a channel per address, each with its own handler and promise of
        // readiness: the one that connected is looked up here once connect names it, whatever
        // the handler's fate (a pipeline torn down by a failed handshake no longer has it).
        let attempts = LockedState<[ObjectIdentifier: EventLoopFuture<Void>]>([:])
        // One event loop, chosen here: the resolver's answers come on it, where Happy Eyeballs runs.
        let connectLoop = loop ?? configuration.eventLoopGroup.next()
        let resolution = TimedResolution(configuration.resolver, on: connectLoop)
        let bootstrap = ClientBootstrap(group: connectLoop)
            .connectTimeout(TimeAmount(max(.zero, connectTimeout)))
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .resolver(resolution)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                    }
                    try pipeline.addHandler(HTTPRequestEncoder())
                    try pipeline.addHandler(
                        ByteToMessageHandler(
                            HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)))
                    let ready = channel.eventLoop.makePromise(of: Void.self)
                    attempts.withLock { $0[ObjectIdentifier(channel)] = ready.futureResult }
                    try pipeline.addHandler(HTTP1ClientHandler(readiness: readiness, ready: ready))
                }
            }
        let start = ContinuousClock.now
        let channel = try await bootstrap.connect(host: origin.host, port: origin.port).get()
        let connected = ContinuousClock.now
        do {
            guard let ready = attempts.withLock({ $0[ObjectIdentifier(channel)] }) else { throw ChannelError.ioOnClosedChannel }
            try await ready.get()
        } catch {
            try? await channel.close()
            throw error
        }
        if origin.isSecure { marks.tls = connected.duration(to: .now) }
        marks.connect = start.duration(to: connected)
        marks.dns = resolution.duration
        return channel
    }

    /// Counts in a connection opened elsewhere, as in use (a test's `EmbeddedChannel`): `false`
    /// when its origin has no room for it.
    func adopt(_ connection: HTTP1Connection) -> Bool {
        state.withLock { state in
            var origin = state.origins[connection.info.origin, default: OriginState(limit: configuration.maximumConnectionsPerOrigin)]
            guard case .connect? = origin.lease() else { return false }
            origin.connected(connection)
            state.origins[connection.info.origin] = origin
            return true
        }
    }

    /// What the pool would give the next call to `origin`, without waiting (for tests: a lease
    /// taken is not given back).
    func leaseForTest(_ origin: NIOTransport.Origin) -> OriginState.Lease? {
        state.withLock { $0.origins[origin]?.lease() }
    }

    /// Gives a connection back: to the first waiter, or kept idle. `false` when the pool no
    /// longer has it (it closed, or the pool shut down).
    func release(_ connection: HTTP1Connection) -> Bool {
        let release = state.withLock { state -> OriginState.Release in
            guard !state.isShutDown else { return .gone }
            return state.origins[connection.info.origin]?.released(connection) ?? .gone
        }
        switch release {
        case .kept: return true
        case .gone: return false
        case .handedOver(let waiter, let connection):
            waiter.resume(returning: .use(connection))
            return true
        }
    }

    /// A connection closed: its room goes to the first waiter.
    private func closed(_ connection: HTTP1Connection) {
        let next = state.withLock { $0.origins[connection.info.origin]?.closed(connection) }
        next.map { Self.grant($0.1, to: $0.0) }
    }

    private static func grant(_ grant: OriginState.Grant, to waiter: Waiter) {
        switch grant {
        case .use(let connection): waiter.resume(returning: .use(connection))
        case .connect: waiter.resume(returning: .connect)
        }
    }

    /// Closes every idle connection and fails every waiter; connections in use close when their
    /// exchange ends.
    func shutDown() async {
        let (idle, waiters) = state.withLock { state -> ([HTTP1Connection], [Waiter]) in
            state.isShutDown = true
            var idle: [HTTP1Connection] = []
            var waiters: [Waiter] = []
            for (key, var origin) in state.origins {
                let (connections, waiting) = origin.shutDown()
                state.origins[key] = origin
                idle += connections
                waiters += waiting
            }
            return (idle, waiters)
        }
        for waiter in waiters { waiter.resume(throwing: CancellationError()) }
        for connection in idle { try? await connection.channel.close() }
    }

    static let shutDownError = NetworkError.invalidRequest(reason: "the NIOTransport has been shut down")

    private static func isAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

extension TimeAmount {
    /// The same span, in nanoseconds, saturating.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000_000 else {
            self = .nanoseconds(.max)
            return
        }
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
#endif
