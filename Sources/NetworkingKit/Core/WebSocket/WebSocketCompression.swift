/// Per-message compression on a WebSocket connection: RFC 7692's `permessage-deflate`, offered
/// in the upgrade and used when the server accepts it.
///
/// Offered by default, as browsers and OkHttp offer it: text and JSON messages shrink several
/// times over on the wire. A server that declines leaves messages as they are.
///
/// A connection that negotiates it holds about 300 KiB of zlib state while it is open (256 KiB
/// to deflate, 32 KiB to inflate): weigh that for thousands of connections at once. The client
/// compresses each message on its own; what it receives may refer back to earlier messages, as
/// the server chooses.
///
/// Turn it off for a connection that sends secrets and text an attacker chooses in the same
/// message: compressed sizes can reveal the secret a byte at a time (the CRIME attack on TLS
/// compression).
///
/// ```swift
/// var options = WebSocketOptions()
/// options.compression = .disabled
/// ```
///
/// `NIOTransport` negotiates it. `URLSessionTransport` leaves it to the platform, whose
/// `URLSessionWebSocketTask` decides for itself whether to offer it.
public struct WebSocketCompression: Sendable, Hashable {
    /// Whether `permessage-deflate` is offered.
    public var isEnabled: Bool
    /// Messages smaller than this many bytes are sent as they are: deflating a few bytes costs
    /// more time than it saves on the wire. 256 by default.
    public var minimumMessageSize: Int

    /// `permessage-deflate` offered, for messages of 256 bytes or more.
    public static let perMessageDeflate = WebSocketCompression(isEnabled: true, minimumMessageSize: 256)
    /// Nothing offered: every message is sent and taken as it is.
    public static let disabled = WebSocketCompression(isEnabled: false, minimumMessageSize: 256)

    private init(isEnabled: Bool, minimumMessageSize: Int) {
        self.isEnabled = isEnabled
        self.minimumMessageSize = minimumMessageSize
    }
}
