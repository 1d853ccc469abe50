#if DemoAPI
import HTTPTypes  // names `HTTPFields`, which Hummingbird does not re-export
import Hummingbird
import HummingbirdWebSocket
import HummingbirdWSCompression
import Logging
import NIOCore

/// Assembles DemoAPI's router and Hummingbird application around one ``DemoState``.
///
/// Kept apart from ``DemoServer`` so tests can drive the same router in-process through
/// HummingbirdTesting without opening a socket.
@available(macOS 14, iOS 17, tvOS 17, *)
enum DemoApplication {
    /// The router with every DemoAPI route.
    static func makeRouter(state: DemoState) -> Router<DemoRequestContext> {
        // HEAD answers like GET without the body, for every GET route.
        let router = Router(context: DemoRequestContext.self, options: .autoGenerateHeadEndpoints)
        // One line per request at info (`netkit serve -v`); nothing at all with the default silent logger.
        router.add(middleware: LogRequestsMiddleware(.info))
        // Added next so it also wraps the router's own 404 for unknown paths.
        router.add(middleware: ErrorMiddleware())

        // The index of every route, read off the router once all are registered (below).
        let index = Locked("")
        router.get("/") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: index.withLock { $0 })))
        }

        // Registered before the stats middleware: reading the counters does not change them.
        router.get("/stats") { _, _ in
            try JSONBody.response(state.stats.snapshot)
        }
        router.delete("/stats") { _, _ in
            state.stats.reset()
            return Response(status: .noContent)
        }

        router.add(middleware: StatsMiddleware(stats: state.stats))
        FilmRoutes(state: state).register(on: router)
        TodoRoutes(state: state).register(on: router)
        AuthRoutes(state: state).register(on: router)
        CookieRoutes(state: state).register(on: router)
        FaultRoutes(state: state).register(on: router)
        StatusRoutes().register(on: router)
        EchoRoutes().register(on: router)
        EncodingRoutes().register(on: router)
        FileRoutes(state: state).register(on: router)
        UploadRoutes(state: state).register(on: router)
        StreamRoutes(state: state).register(on: router)
        TodoPageRoutes(state: state).register(on: router)
        CacheScriptRoutes(state: state).register(on: router)
        WebSocketRoutes(state: state).register(on: router)
        let text = RouteIndex.text(of: router)
        index.withLock { $0 = text }
        return router
    }

    /// The application serving `router` (from ``makeRouter(state:)``) on `host:port`; `onServerRunning` receives the
    /// listening channel, which is how the caller learns the port really bound.
    static func make(
        router: Router<DemoRequestContext>,
        webSockets: WebSocketRoutes? = nil,
        host: String,
        port: Int,
        logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // The server's own pings are off: a test's connection sees only what it asked for.
        // permessage-deflate is accepted when a client offers it, inflating to a frame's limit.
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: WebSocketServerConfiguration(
                maxFrameSize: WebSocketRoutes.maxFrameSize,
                extensions: [.perMessageDeflate(maxDecompressedFrameSize: WebSocketRoutes.maxFrameSize)], autoPing: .disabled))
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: configuration) { request, channel, _ in
                await webSockets?.shouldUpgrade(request, channel: channel) ?? .dontUpgrade
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "DemoAPI"),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }
}
#endif
