public import HTTPTypes

/// Sends one HTTP request and returns the response: the bottom layer of NetworkingKit.
///
/// A transport does only the I/O. Everything else (authentication, retries, caching, logging) is a
/// ``Middleware``, so that it works the same over every transport.
///
/// ## Choose between a transport and a middleware
///
/// Write a transport to move bytes a new way (a different HTTP stack, an in-memory stub for
/// tests). Write a middleware to change what is sent or received, whatever the transport.
///
/// ## Implement a custom transport
///
/// - Send `request` with `body` (which may be `nil`, buffered or streamed) and return as soon as the
///   response head has arrived; return the response body as a stream so the client can enforce its
///   size limit while reading.
/// - Honour `context.options.timeout` and Task cancellation: cancelling the calling task must
///   cancel the request on the wire and throw ``NetworkError/cancelled``.
/// - Throw ``NetworkError`` for failures: ``NetworkError/timeout(_:)`` for timeouts and
///   ``NetworkError/transport(_:)`` for everything else, keeping the underlying error.
/// - Do not follow redirects or cache on your own; the client does that the same way for every
///   transport.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response head and its body.
    /// - Parameters:
    ///   - request: The request; its URL is absolute.
    ///   - body: The request body, if any.
    ///   - context: Per-request options (timeout), the request id and the logger.
    /// - Returns: The response and its body, still to be read.
    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?)
}
