public import HTTPTypes

/// The rest of the chain, as a middleware sees it: the next middleware, or finally the transport.
public typealias MiddlewareNext =
    @Sendable (
        _ request: HTTPRequest,
        _ body: HTTPBody?,
        _ context: RequestContext
    ) async throws -> HTTPAnswer

/// A step in the request pipeline that sees each request on its way down and each response (or
/// error) on its way back up.
///
/// Every cross-cutting concern in NetworkingKit (authentication, retry, caching, logging) is a
/// middleware. A middleware may change the request, answer without calling `next` (a cache hit),
/// call `next` once (most), or several times (a retry, a replay after a token refresh).
///
/// ## Implement a middleware
///
/// ```swift
/// struct APIKeyMiddleware: Middleware {
///     let key: String
///     func intercept(
///         _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
///     ) async throws -> HTTPAnswer {
///         var request = request
///         request.headerFields[HTTPField.Name("X-API-Key")!] = key
///         return try await next(request, body, context)
///     }
/// }
/// ```
///
/// Before calling `next` more than once, check ``HTTPBody/isReplayable``: a one-shot stream
/// cannot be sent twice. The response body is a stream: a middleware that reads it must hand a
/// new body on (for example `answer.body = HTTPBody(data)`), since the original may be readable
/// only once. What happened below it (redirects followed, a cache's answer) comes back in the
/// ``HTTPAnswer``; a middleware that answers by itself returns one of its own.
///
/// Middlewares run in the order given to the client, the first outermost. For the simpler shapes
/// of the seeds, see ``RequestInterceptor`` and ``ResponseInterceptor``.
public protocol Middleware: Sendable {
    /// Handles one request.
    /// - Parameters:
    ///   - request: The request on its way to the transport.
    ///   - body: Its body, if any.
    ///   - context: The call's options, attempt number, request id and logger.
    ///   - next: The rest of the chain. It may outlive this call: a middleware may hand it to work
    ///     that goes on after it has returned (a call shared with other callers, a background
    ///     revalidation).
    /// - Returns: The answer: the response, its body, and what happened on the way.
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer
}
