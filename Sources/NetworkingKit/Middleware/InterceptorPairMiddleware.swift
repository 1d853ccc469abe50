public import HTTPTypes

extension RequestInterceptor where Self: ResponseInterceptor {
    /// This interceptor as one middleware that changes each request and then sees each response,
    /// for a type that is both (seed 004's `LoggingInterceptor`). Without it, `middleware` would
    /// be ambiguous between the two protocols'.
    public var middleware: InterceptorPairMiddleware {
        InterceptorPairMiddleware(request: self, response: self)
    }
}

/// Runs a ``RequestInterceptor`` and a ``ResponseInterceptor`` as one ``Middleware``: the request
/// interceptor changes each request on its way down, the response interceptor sees each answer
/// the client reads whole on its way back up.
public struct InterceptorPairMiddleware: Middleware {
    private let request: RequestInterceptorMiddleware
    private let response: ResponseInterceptorMiddleware

    /// Wraps a request interceptor and a response interceptor (often the same value).
    public init(request: some RequestInterceptor, response: some ResponseInterceptor) {
        self.request = RequestInterceptorMiddleware(request)
        self.response = ResponseInterceptorMiddleware(response)
    }

    /// Lets the request interceptor change the request, sends it, and lets the response
    /// interceptor see the answer.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        let requestStep = self.request
        return try await response.intercept(request, body: body, context: context) { request, body, context in
            try await requestStep.intercept(request, body: body, context: context, next: next)
        }
    }
}
