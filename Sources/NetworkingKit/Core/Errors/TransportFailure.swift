/// A failure below HTTP, in terms that do not depend on the transport.
public struct TransportFailure: Sendable, CustomStringConvertible {
    /// What went wrong, in transport-neutral terms; retry policies decide on this.
    @nonexhaustive
    public enum Kind: String, Sendable, Hashable {
        /// Nothing listens at the address, or the connection was refused.
        case connectionRefused
        /// An established connection dropped before the exchange finished.
        case connectionLost
        /// The host name could not be resolved.
        case hostNotFound
        /// The device has no network connection.
        case notConnected
        /// The TLS handshake or certificate check failed.
        case secureConnectionFailed
        /// The server's answer was not valid HTTP.
        case invalidResponse
        /// The body ended before the length the server declared.
        case truncatedBody
        /// Any other failure; see ``TransportFailure/underlying``.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// The transport's own error code (for URLSession, the `URLError.Code` raw value), when it has one.
    public let code: Int?
    /// The transport's own error.
    public let underlying: (any Error)?
    /// The request that failed, when known.
    public internal(set) var request: RequestSummary?

    /// Creates a transport failure.
    public init(kind: Kind, code: Int? = nil, underlying: (any Error)? = nil, request: RequestSummary? = nil) {
        self.kind = kind
        self.code = code
        self.underlying = underlying
        self.request = request
    }

    /// `connectionRefused (code -1004) for GET http://…: <underlying>`.
    public var description: String {
        var text = kind.rawValue
        if let code { text += " (code \(code))" }
        if let request { text += " for \(request)" }
        if let underlying { text += ": \(underlying)" }
        return text
    }
}

extension TransportFailure.Kind: CustomStringConvertible {
    /// The case's name: `connectionLost`, `secureConnectionFailed`…
    public var description: String { rawValue }
}
