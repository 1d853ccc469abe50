/// A WebSocket connection that could not open, or that ended other than by a close handshake.
///
/// A refused upgrade with an HTTP status (401, 404, 503…) is not one: it fails as that status's
/// ``NetworkError`` case, as any call does.
public struct WebSocketFailure: Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The server answered the upgrade with a success that is not `101 Switching Protocols`:
        /// it does not speak WebSocket at that URL.
        public static let notUpgraded = Kind("the server did not switch to WebSocket")
        /// The server's `101` broke the handshake: a wrong `Sec-WebSocket-Accept`, an extension
        /// or subprotocol that was not offered.
        public static let invalidHandshake = Kind("the server's WebSocket handshake is invalid")
        /// The server sent a message larger than ``WebSocketOptions/maximumMessageSize``; the
        /// connection was closed with ``WebSocketCloseCode/messageTooBig``.
        public static let messageTooLarge = Kind("the server sent a message larger than the limit")
        /// The server broke the protocol (an unmasked or reserved frame, text that is not UTF-8);
        /// the connection was closed with the matching code.
        public static let protocolViolation = Kind("the server broke the WebSocket protocol")
        /// The connection ended without a close frame (code 1006), or stopped answering pings.
        public static let connectionLost = Kind("the connection ended without a close frame")
        /// A message was sent, or a ping, after the connection closed.
        public static let closed = Kind("the connection is closed")
        /// The transport cannot open WebSocket connections on this platform.
        public static let unsupported = Kind("the transport cannot open WebSocket connections")

        /// The kind in words.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// More about it, in words, when there is more to say (`Sec-WebSocket-Accept does not match`).
    public let detail: String?
    /// The close frame exchanged, when there was one (the server's, or the one sent for it).
    public let close: WebSocketClose?
    /// The transport's own error, when there is one.
    public let underlying: (any Error)?
    /// The upgrade request, when known.
    public internal(set) var request: RequestSummary?

    /// Creates a WebSocket failure.
    public init(
        kind: Kind, detail: String? = nil, close: WebSocketClose? = nil, underlying: (any Error)? = nil,
        request: RequestSummary? = nil
    ) {
        self.kind = kind
        self.detail = detail
        self.close = close
        self.underlying = underlying
        self.request = request
    }

    /// `the server sent a message larger than the limit: 2097152 bytes, over 1048576 (closed 1009 (message too big))`.
    public var description: String {
        var text = kind.description
        if let detail { text += ": \(detail)" }
        if let close { text += " (closed \(close))" }
        if let underlying { text += ": \(underlying)" }
        return text
    }
}
