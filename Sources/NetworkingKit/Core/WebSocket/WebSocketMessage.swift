public import Foundation

/// One message on a WebSocket connection: text (valid UTF-8) or bytes.
///
/// A message may have crossed the network in several frames; it is whole here.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's size in bytes, as counted against ``WebSocketOptions/maximumMessageSize``.
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }
}
