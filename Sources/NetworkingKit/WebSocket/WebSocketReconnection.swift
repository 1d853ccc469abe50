/// How a reconnecting WebSocket (``LiveAPIClient/webSocket(_:options:reconnection:)``) comes back
/// after its connection is lost.
///
/// ```swift
/// var reconnection = WebSocketReconnection()
/// reconnection.onConnect = { connection in
///     try await connection.send(.text(#"{"subscribe":"prices"}"#))
/// }
/// ```
public struct WebSocketReconnection: Sendable {
    /// The delays between attempts and how many fail in a row before it gives up, in the retry
    /// policy's shape: exponential from ``RetryPolicy/baseDelay``, capped, with jitter; the
    /// statuses and failures it retries are the ones that let a new attempt succeed (a `503`, a
    /// lost connection), never a `401` a refresh did not cure or a `404`. 10 attempts in a row from
    /// 0.5 s up to 30 s, full jitter, by default; a connection that opens starts the count again.
    public var backoff = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(500), maxDelay: .seconds(30))
    /// Called with each connection as it opens, the first included, before any of its messages
    /// is read: send what the server needs to hear again (a subscription, the last id seen). An
    /// error thrown here closes that connection and is judged as a failed attempt's would be: a
    /// lost connection, or a server going away as it spoke, is tried again; any other error ends
    /// the updates with it.
    public var onConnect: (@Sendable (WebSocketConnection) async throws -> Void)?
    /// The clock the delays are waited on (tests inject a manual one).
    public var clock: any Clock<Duration> = ContinuousClock()
    /// A source of values in 0..<1 for the jitter.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Reconnects with the default backoff, and sends nothing of its own.
    public init() {}

    /// Whether a connection closed by the server with `close` should be opened again: when the
    /// server is going away or restarting (1001, 1011, 1012, 1013, 1014), not when it ended the
    /// conversation (1000) or refused the client (1002-1010, 4000-4999 and the rest).
    public static func reconnects(after close: WebSocketClose) -> Bool {
        [1001, 1011, 1012, 1013, 1014].contains(close.code.rawValue)
    }
}

/// What happens on a reconnecting WebSocket, in order: the elements of
/// ``ReconnectingWebSocket/updates``.
public enum WebSocketUpdate: Sendable {
    /// A connection opened (the first, or a new one), and ``WebSocketReconnection/onConnect`` has run.
    case connected(WebSocketConnection)
    /// A message from the server.
    case message(WebSocketMessage)
    /// The connection was lost, closed by a server going away, or could not open (`reason` says
    /// why): a new one is tried once `after` has passed.
    case reconnecting(after: Duration, reason: NetworkError)
}
