/// The status code of a WebSocket close frame (RFC 6455 §7.4): why a side ends the connection.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent on the wire.
    public let rawValue: UInt16

    /// A code; an application's own are 4000-4999.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = Self(rawValue: 1000)
    /// 1001: the side is going away (a server shutting down, a page left).
    public static let goingAway = Self(rawValue: 1001)
    /// 1002: the other side broke the protocol.
    public static let protocolError = Self(rawValue: 1002)
    /// 1003: a kind of message the side cannot accept (binary where it takes only text).
    public static let unsupportedData = Self(rawValue: 1003)
    /// 1005: the close frame carried no code. Never sent; reported when a peer sent none.
    public static let noStatusReceived = Self(rawValue: 1005)
    /// 1006: the connection ended without a close frame. Never sent; reported when it happens.
    public static let abnormalClosure = Self(rawValue: 1006)
    /// 1007: a text message that is not UTF-8, or data inconsistent with its kind.
    public static let invalidPayload = Self(rawValue: 1007)
    /// 1008: a message breaks the side's policy.
    public static let policyViolation = Self(rawValue: 1008)
    /// 1009: a message too large to take (``WebSocketOptions/maximumMessageSize``).
    public static let messageTooBig = Self(rawValue: 1009)
    /// 1010: the client needs an extension the server did not agree to.
    public static let mandatoryExtension = Self(rawValue: 1010)
    /// 1011: the server met a condition that kept it from completing the request.
    public static let internalServerError = Self(rawValue: 1011)

    /// Whether a close frame may carry the code: 1000-1003, 1007-1014 and 3000-4999. The others
    /// are reserved, or only reported (1005, 1006, 1015).
    public var canBeSent: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number, and its name for the codes RFC 6455 defines: `1009 (message too big)`.
    public var description: String {
        let names: [UInt16: String] = [
            1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
            1005: "no status received", 1006: "abnormal closure", 1007: "invalid payload", 1008: "policy violation",
            1009: "message too big", 1010: "mandatory extension", 1011: "internal server error",
        ]
        return names[rawValue].map { "\(rawValue) (\($0))" } ?? String(rawValue)
    }
}

/// A close frame: its code and reason.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// Why the connection closed.
    public let code: WebSocketCloseCode
    /// The reason given with the code, possibly empty; at most 123 bytes of UTF-8.
    public let reason: String

    /// Creates a close frame's contents.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// `4001 "bye"`, or the code alone when there is no reason.
    public var description: String {
        reason.isEmpty ? code.description : "\(code) \"\(reason)\""
    }

    /// The longest reason a close frame carries: its payload is at most 125 bytes, two of them the code.
    public static let maximumReasonLength = 123
}
