public import HTTPTypes

/// A transport that can open WebSocket connections (RFC 6455) as well as send requests.
///
/// `NIOTransport` is one, and `URLSessionTransport` on Apple platforms. The client sends the
/// upgrade request through its middleware chain and its redirect step like any other, then asks
/// the transport to open it: a WebSocket transport need not know about middlewares.
///
/// ## Implement one
///
/// - Open a connection to the request's origin (its `http` or `https` URL stands for `ws` or
///   `wss`), send the request as an HTTP/1.1 upgrade with a fresh `Sec-WebSocket-Key`, version 13,
///   and the subprotocols of ``CallPlan/webSocket`` in `Sec-WebSocket-Protocol`.
/// - On `101 Switching Protocols`, check `Upgrade`, `Connection` and `Sec-WebSocket-Accept`,
///   and the subprotocol and extensions the server chose (a failure is
///   ``WebSocketFailure/Kind-swift.struct/invalidHandshake``), then return
///   ``HTTPAnswer/init(_:webSocket:)``.
/// - On any other status, return the answer as it came, its body still to be read: the client's
///   redirect step follows a `3xx`, an authentication middleware refreshes on a `401`, and the
///   client turns the rest into their ``NetworkError``.
/// - Bound the handshake by ``CallPlan/timeout``, and honour Task cancellation as
///   ``HTTPTransport`` says.
public protocol WebSocketTransport: HTTPTransport {
    /// Sends a WebSocket upgrade request and returns the server's answer: a `101` carrying the
    /// open connection, or the refusal.
    /// - Parameters:
    ///   - request: The upgrade request: a `GET` to an absolute `http` or `https` URL, with the
    ///     app's fields; the transport adds the handshake's own.
    ///   - context: The call's plan, with its ``CallPlan/webSocket`` options, and its logger.
    /// - Returns: The answer.
    func openWebSocket(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPAnswer
}

/// One open WebSocket connection, as a transport provides it to ``WebSocketConnection``.
///
/// - ``receive()`` has one caller at a time. Cancelling the task that waits in it closes the
///   connection (``WebSocketCloseCode/goingAway``) and throws ``NetworkError/cancelled``.
/// - Failures are ``NetworkError/webSocket(_:)`` (``NetworkError/cancelled`` for cancellation).
public protocol WebSocketChannel: Sendable {
    /// The subprotocol the server chose, if any.
    var subprotocol: String? { get }
    /// The close frame the server sent, once it has.
    var closeReceived: WebSocketClose? { get }
    /// Sends one message, in as many frames as the transport needs.
    func send(_ message: WebSocketMessage) async throws
    /// The next whole message, or `nil` once the close handshake is over (see ``closeReceived``).
    func receive() async throws -> WebSocketMessage?
    /// Sends a ping and returns when its pong arrives.
    func ping() async throws
    /// Starts the close handshake with `close`, unless it has begun, and returns once it is over
    /// or the transport has given up waiting for the server's reply; never throws.
    func close(_ close: WebSocketClose) async
}

/// The connection an upgraded answer carries, on the heap: an answer is copied at every step of
/// every call, and a class reference is one word where the existential would be five.
final class WebSocketBox: Sendable {
    let channel: any WebSocketChannel

    init(_ channel: any WebSocketChannel) {
        self.channel = channel
    }
}

extension HTTPAnswer {
    /// The answer to a WebSocket upgrade that succeeded: `response` (a `101`) and the open connection.
    /// - Parameters:
    ///   - response: The server's `101 Switching Protocols`.
    ///   - webSocket: The connection.
    public init(_ response: HTTPResponse, webSocket: any WebSocketChannel) {
        self.init(response)
        webSocketBox = WebSocketBox(webSocket)
    }

    /// The WebSocket connection the answer opened, when it answers an upgrade that succeeded;
    /// `nil` for every other answer.
    public var webSocket: (any WebSocketChannel)? { webSocketBox?.channel }
}
