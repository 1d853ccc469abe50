#if DemoAPI
public import Foundation
import Hummingbird
public import Logging
import ServiceLifecycle
import NIOCore

/// A real HTTP server with DemoAPI's routes (Pixar films, todos, auth, faults, echo), listening on
/// loopback for integration tests, the `netkit` command and benchmarks.
///
/// Each server owns all of its state, so any number can run side by side in one process:
///
/// ```swift
/// try await DemoServer.withServer { server in
///     let (data, _) = try await URLSession.shared.data(from: server.baseURL.appending(path: "films"))
///     #expect(!data.isEmpty)
///     #expect(server.stats.count("GET /films") == 1)
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
public final class DemoServer: Sendable {
    /// How to start a ``DemoServer``.
    public struct Configuration: Sendable {
        /// The address to listen on.
        public var host: String
        /// The port to listen on; 0 picks any free port (read the real one from ``DemoServer/port``).
        public var port: Int
        /// Lifetime of access tokens from `/auth/login` and `/auth/refresh` (`?ttl=` overrides it per call).
        public var accessTokenLifetime: Duration
        /// Lifetime of refresh tokens.
        public var refreshTokenLifetime: Duration
        /// Where the server logs; silent by default so test output stays clean.
        public var logger: Logger

        /// Creates a configuration; the defaults suit tests: loopback, any free port, silent.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            accessTokenLifetime: Duration = .seconds(300),
            refreshTokenLifetime: Duration = .seconds(3600),
            logger: Logger = Logger(label: "DemoAPI", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.host = host
            self.port = port
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.logger = logger
        }
    }

    /// Why a server could not start.
    public enum StartError: Error, Equatable {
        /// The server stopped before it was listening (for instance it was cancelled while starting).
        case stoppedBeforeListening
        /// The listening socket reported no port.
        case noBoundPort
        /// `host` and the port do not form a valid URL.
        case invalidHost(String)
    }

    /// The port really bound (the chosen one when the configuration asked for 0).
    public let port: Int
    /// `http://HOST:PORT`, without a trailing slash.
    public let baseURL: URL
    /// The request counters, the same as `GET /stats` serves.
    public var stats: DemoStats { state.stats }
    /// One line per route, with its methods and what it answers: what `GET /` serves, after a
    /// title line.
    public let routeIndex: [String]

    private let state: DemoState
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    private let stopRequested = Locked(false)

    private init(
        port: Int, baseURL: URL, state: DemoState, routeIndex: [String], group: ServiceGroup, task: Task<Void, any Error>
    ) {
        self.port = port
        self.routeIndex = routeIndex
        self.baseURL = baseURL
        self.state = state
        self.group = group
        self.task = task
    }

    /// Starts a server and returns once it is listening; throws if it cannot bind or start.
    public static func start(_ configuration: Configuration = .init()) async throws -> DemoServer {
        let state = DemoState(
            accessTokenLifetime: configuration.accessTokenLifetime,
            refreshTokenLifetime: configuration.refreshTokenLifetime
        )
        let signal = StartupSignal()
        let router = DemoApplication.makeRouter(state: state)
        let routeIndex = RouteIndex.lines(of: router)
        let application = DemoApplication.make(
            router: router,
            webSockets: WebSocketRoutes(state: state),
            host: configuration.host,
            port: configuration.port,
            logger: configuration.logger
        ) { channel in
            if let port = channel.localAddress?.port {
                signal.resolve(.success(port))
            } else {
                signal.resolve(.failure(StartError.noBoundPort))
            }
        }
        // Signals are left to the embedding program (`netkit serve` calls stop()), hence none here.
        var groupConfiguration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [], logger: configuration.logger)
        // A request still running after a second (a trickle, a delay) is cut off by cancellation.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            do {
                try await group.run()
                signal.resolve(.failure(StartError.stoppedBeforeListening))
            } catch {
                signal.resolve(.failure(error))
                throw error
            }
        }
        do {
            let port = try await withTaskCancellationHandler {
                try await signal.wait()
            } onCancel: {
                task.cancel()
            }
            let host = reachableHost(configuration.host)
            guard let baseURL = URL(string: "http://\(host):\(port)") else {
                throw StartError.invalidHost(configuration.host)
            }
            state.setBoundAuthority(host: host, port: port)
            return DemoServer(port: port, baseURL: baseURL, state: state, routeIndex: routeIndex, group: group, task: task)
        } catch {
            // Never leave a half-started server running behind a thrown error.
            task.cancel()
            _ = await task.result
            throw error
        }
    }

    /// Stops the server: closes the listener and every connection, and returns once the server task
    /// has ended. Requests still in flight are cut off. Calling it again does nothing more.
    ///
    /// A graceful shutdown: the listener and idle connections close without the errors a bare
    /// cancellation logs ("Server shutdown error", "Waiting on child channel"); a request still
    /// running a second later (a long trickle) is cancelled.
    public func stop() async {
        stopRequested.withLock { $0 = true }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Waits until the server ends, through ``stop()`` or because the waiting task is cancelled (which
    /// stops the server). Throws only if the server failed on its own.
    public func waitUntilStopped() async throws {
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            stopRequested.withLock { $0 = true }
            task.cancel()
        }
        if case .failure(let error) = result, !(error is CancellationError), !stopRequested.withLock({ $0 }) {
            throw error
        }
    }

    /// Runs `body` with a fresh server and stops the server afterwards, whether `body` returns or throws.
    @discardableResult
    public static func withServer<T>(
        _ configuration: Configuration = .init(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (DemoServer) async throws -> T
    ) async throws -> T {
        try await withStopping(try await start(configuration), stop: { await $0.stop() }, body)
    }

    /// The host as it goes into a URL: IPv6 literals bracketed, and wildcard addresses replaced by
    /// loopback, since a client cannot connect to "any address".
    private static func reachableHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::", "[::]": "[::1]"
        default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }
}
#endif
