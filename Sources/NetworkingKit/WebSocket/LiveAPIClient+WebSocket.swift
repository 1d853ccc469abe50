import Foundation
import HTTPTypes

extension LiveAPIClient {
    /// Opens a WebSocket connection to an endpoint.
    ///
    /// ```swift
    /// let connection = try await client.webSocket(Chat.room("general"))
    /// try await connection.send(.text("hello"))
    /// ```
    ///
    /// The endpoint is a `GET` with no body; its URL is built as any other's, and its base URL (or
    /// an absolute path) may be `ws` or `wss` as well as `http` or `https`. The upgrade request goes through the
    /// client's middlewares: authentication adds its credential (and a `401` on the upgrade
    /// refreshes it once and tries again), logging, metrics and tracing see it, and its
    /// redirects follow the client's ``RedirectPolicy``, credentials removed across origins. The
    /// cache, de-duplication and retries step aside. The call timeout bounds the handshake; the
    /// open connection then lasts until one side closes it.
    ///
    /// - Parameters:
    ///   - endpoint: Where to connect.
    ///   - options: The largest message taken, the subprotocols offered, the pings.
    /// - Returns: The open connection.
    /// - Throws: The ``NetworkError`` of a refused upgrade's status (``NetworkError/unauthorized(_:)``
    ///   for a `401` that a refresh did not cure), ``NetworkError/webSocket(_:)`` for a server
    ///   that does not speak WebSocket there or breaks the handshake, or for a transport that
    ///   cannot open one (``WebSocketFailure/Kind-swift.struct/unsupported``).
    public func webSocket(_ endpoint: some APIEndpoint, options: WebSocketOptions = WebSocketOptions()) async throws
        -> WebSocketConnection
    {
        var summary: RequestSummary?
        do {
            var target = try RequestTarget(endpoint)
            target.baseURL = Self.httpEquivalent(of: target.baseURL)
            target.path = Self.httpEquivalent(ofPath: target.path)
            guard target.method == .get, target.body == nil else {
                throw NetworkError.invalidRequest(reason: "a WebSocket upgrade is a GET with no body")
            }
            guard (1...WebSocketOptions.largestMessageSize).contains(options.maximumMessageSize) else {
                throw NetworkError.invalidRequest(
                    reason: "the WebSocket maximum message size must be from 1 to \(WebSocketOptions.largestMessageSize) bytes")
            }
            if let interval = options.pingInterval, interval <= .zero {
                throw NetworkError.invalidRequest(reason: "the WebSocket ping interval must be positive")
            }
            guard options.compression.minimumMessageSize >= 0 else {
                throw NetworkError.invalidRequest(reason: "the WebSocket compression's minimum message size must not be negative")
            }
            let call = try prepare(target, accept: nil, streamsResponseBody: true, webSocket: options)
            summary = call.summary
            try Task.checkCancellation()
            let open: @Sendable () async throws -> WebSocketConnection = { try await self.upgrade(call) }
            if let deadline = call.deadline {
                return try await run(open, before: deadline, request: call.summary)
            }
            return try await open()
        } catch {
            throw summary.map { Self.normalize(error, request: $0) } ?? error
        }
    }

    /// A WebSocket to an endpoint that opens a new connection whenever its connection is lost
    /// (or the server, going away, closes it), with backoff and jitter, until it is closed.
    ///
    /// ```swift
    /// var reconnection = WebSocketReconnection()
    /// reconnection.onConnect = { try await $0.send(.text("subscribe")) }
    /// let live = client.webSocket(Request<Void>(path: "/ws/echo"), reconnection: reconnection)
    /// ```
    ///
    /// Each connection opens as ``webSocket(_:options:)`` opens one, through the middlewares.
    /// Nothing is sent until ``ReconnectingWebSocket/updates`` is read.
    /// - Parameters:
    ///   - endpoint: Where to connect.
    ///   - options: Each connection's options.
    ///   - reconnection: How it reconnects, and what it sends on each new connection.
    /// - Returns: The socket, not yet connected.
    public func webSocket(
        _ endpoint: some APIEndpoint, options: WebSocketOptions = WebSocketOptions(), reconnection: WebSocketReconnection
    ) -> ReconnectingWebSocket {
        ReconnectingWebSocket(reconnection: reconnection) { [self] in
            try await webSocket(endpoint, options: options)
        }
    }

    /// Sends the upgrade down the chain and makes the connection of its answer.
    private func upgrade(_ call: Prepared) async throws -> WebSocketConnection {
        let answer = try await chain.send(call.request, call.body, call.context)
        if answer.response.status == .switchingProtocols, let channel = answer.webSocket {
            return WebSocketConnection(
                request: call.summary, answer: answer, channel: channel, pingInterval: call.context.plan.webSocket?.pingInterval,
                clock: configuration.clock)
        }
        // A middleware that answered by itself, or replaced the answer, left no connection.
        if let channel = answer.webSocket { await channel.close(WebSocketClose(code: .goingAway)) }
        guard answer.response.status.kind == .successful || answer.response.status == .switchingProtocols else {
            throw try await failure(for: answer.response, body: answer.body, request: call.summary, limit: call.limit)
        }
        await HTTPBody.discard(answer.body)
        throw NetworkError.webSocket(
            WebSocketFailure(
                kind: .notUpgraded, detail: "the server answered \(answer.response.status.code) to the upgrade",
                request: call.summary))
    }

    /// An absolute `ws` or `wss` path (the whole URL) as its `http` or `https` equivalent, the
    /// rest as typed; any other path as it is.
    static func httpEquivalent(ofPath path: String) -> String {
        for (scheme, http) in [("ws://", "http://"), ("wss://", "https://")]
        where path.count > scheme.count && path.prefix(scheme.count).lowercased() == scheme {
            return http + path.dropFirst(scheme.count)
        }
        return path
    }

    /// `ws` and `wss` URLs as the `http` and `https` ones the upgrade is sent to.
    static func httpEquivalent(of url: URL) -> URL {
        guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = scheme == "ws" ? "http" : "https"
        return components.url ?? url
    }
}
