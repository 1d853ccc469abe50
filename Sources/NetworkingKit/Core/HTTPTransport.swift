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
/// - Honour the call's plan (``RequestContext/plan``): ``CallPlan/timeout`` bounds the exchange
///   (for a ``CallPlan/streamsResponseBody`` answer, the wait for the head and then each wait for
///   the next part of the body), and ``CallPlan/responseBodyLimit`` may stop a body early.
/// - Honour Task cancellation: cancelling the calling task must cancel the request on the wire and
///   throw ``NetworkError/cancelled``.
/// - Throw ``NetworkError`` for failures: ``NetworkError/timeout(_:)`` for timeouts and
///   ``NetworkError/transport(_:)`` for everything else, keeping the underlying error.
/// - Do not follow redirects or cache on your own; the client does that the same way for every
///   transport.
///
/// The checks and tools the built-in transports use are there for yours too, as SPI (no
/// stability promised) with `@_spi(Transport) import NetworkingKit`: `URLAuthority.problem(in:)`
/// (a host and port a connection can be opened to), `HTTPField.Name.received(_:)` (a server's
/// field name, validated), `HTTPBody.declaredLength(of:isHead:)` (the `Content-Length` a body is
/// checked against, so a cut body fails as `truncatedBody`), `NetworkError.attaching(_:)` (the
/// request named in an error), `DeadlineWatch.shared` (one sleeping task for every deadline of the
/// process, instead of a timer per request) and `LockedState` (a value behind a lock).
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response head and its body.
    /// - Parameters:
    ///   - request: The request; its URL is absolute.
    ///   - body: The request body, if any.
    ///   - context: The call's plan (timeout, size limit), the request id and the logger.
    /// - Returns: The response and its body, still to be read.
    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?)
}

/// A transport that reports more of each exchange's timing than the client measures around it
/// (the start and the first byte): whether the connection was reused, the wait for it, DNS,
/// connect, TLS, the request sent.
///
/// `NIOTransport` is one. A transport that wraps one conforms too and forwards
/// ``timedSend(_:body:context:)``, or the inner transport's phases are lost.
public protocol TimedHTTPTransport: HTTPTransport {
    /// Sends a request and returns the answer with the exchange's ``HTTPAnswer/timing``, as
    /// ``HTTPTransport/send(_:body:context:)`` does otherwise: once the response head has
    /// arrived, the body still to be read.
    /// - Parameters:
    ///   - request: The request; its URL is absolute.
    ///   - body: The request body, if any.
    ///   - context: The call's plan (timeout, size limit), the request id and the logger.
    /// - Returns: The response and its body, with the timing up to the response head.
    func timedSend(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> HTTPAnswer
}
