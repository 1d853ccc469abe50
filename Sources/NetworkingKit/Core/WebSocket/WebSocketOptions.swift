/// How a WebSocket connection behaves: the largest message it takes, the subprotocols it offers,
/// how it keeps the connection alive, and whether it compresses messages.
///
/// ```swift
/// var options = WebSocketOptions()
/// options.maximumMessageSize = 4 * 1024 * 1024
/// options.pingInterval = .seconds(30)
/// ```
public struct WebSocketOptions: Sendable, Hashable {
    /// The largest message taken from the server, in bytes, however many frames it spans: a
    /// larger one closes the connection with ``WebSocketCloseCode/messageTooBig`` and fails the
    /// reader with ``WebSocketFailure/Kind-swift.struct/messageTooLarge``. 1 MiB by default
    /// (URLSessionWebSocketTask's own default).
    public var maximumMessageSize: Int
    /// The subprotocols offered in `Sec-WebSocket-Protocol`, preferred first; the server's choice
    /// is ``WebSocketConnection/subprotocol``. A server that picks one not offered fails the
    /// handshake.
    public var subprotocols: [String]
    /// How often a ping is sent while the connection is open, so that a connection that died
    /// silently (a phone that changed networks) is noticed: when no pong has come back by the
    /// next ping, the connection is closed with 1001, and its reader fails with
    /// ``WebSocketFailure/Kind-swift.struct/connectionLost`` once no close frame comes back (or
    /// ends, should the peer still answer). `nil` (the default) sends none.
    public var pingInterval: Duration?
    /// Per-message compression, offered by default; ``WebSocketCompression/disabled`` offers none.
    /// A compressed message is held to ``maximumMessageSize`` once inflated, so a small frame that
    /// inflates to gigabytes (a decompression bomb) fails like any message over the limit.
    public var compression: WebSocketCompression

    /// The largest ``maximumMessageSize`` there is: 4 GiB less a byte, what a frame's length is
    /// read as (32 bits), or `Int.max` where that is smaller.
    public static let largestMessageSize = Int(clamping: UInt32.max)

    /// The default options: 1 MiB messages, no subprotocol, no pings, `permessage-deflate` offered.
    public init(
        maximumMessageSize: Int = 1 << 20, subprotocols: [String] = [], pingInterval: Duration? = nil,
        compression: WebSocketCompression = .perMessageDeflate
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.subprotocols = subprotocols
        self.pingInterval = pingInterval
        self.compression = compression
    }
}
