import HTTPTypes
import NetworkingKit

/// A middleware that only calls the next one: the floor any middleware costs by being in the chain.
public struct PassThroughMiddleware: Middleware {
    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        try await next(request, body, context)
    }
}
