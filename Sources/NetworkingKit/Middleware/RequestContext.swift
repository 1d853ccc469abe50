public import Logging

/// What a middleware and the transport know about a call besides its request and body.
public struct RequestContext: Sendable {
    /// The endpoint's options, with the client's defaults filled in.
    public var options: RequestOptions
    /// The attempt number, starting at 1; a middleware that sends a request again increments it.
    public var attempt: Int
    /// An identifier for the logical call, shared by all its attempts.
    public let requestID: String
    /// The logger for this call; its metadata carries the request id.
    public var logger: Logger

    /// Creates a context.
    /// - Parameters:
    ///   - options: The options for the request.
    ///   - attempt: The attempt number, starting at 1.
    ///   - requestID: The identifier of the logical call.
    ///   - logger: The logger to use.
    public init(options: RequestOptions, attempt: Int = 1, requestID: String, logger: Logger) {
        self.options = options
        self.attempt = attempt
        self.requestID = requestID
        self.logger = logger
    }
}
