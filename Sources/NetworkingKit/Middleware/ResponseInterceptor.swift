public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A step that may look at or change each response before it is validated and decoded: the
/// response interceptor of seed 004, `(Data, URLResponse) async throws -> (Data, URLResponse)`.
///
/// ```swift
/// struct ResponseLogger: ResponseInterceptor {
///     func intercept(data: Data, response: URLResponse) async throws -> (Data, URLResponse) {
///         print((response as? HTTPURLResponse)?.statusCode ?? 0, data.count)
///         return (data, response)
///     }
/// }
/// ```
///
/// The body is read into memory first (within the call's size limit), so a response interceptor
/// is for answers the client reads whole: a streamed answer (``LiveAPIClient/bytes(_:)``, a
/// download, live events) passes it by as it arrives, never held; to see those, write a
/// ``Middleware``.
public protocol ResponseInterceptor: Sendable {
    /// Returns the body and response to use in place of `data` and `response`.
    func intercept(data: Data, response: URLResponse) async throws -> (Data, URLResponse)
}

extension ResponseInterceptor {
    /// This interceptor as a middleware, to place in a client's chain.
    public var middleware: ResponseInterceptorMiddleware {
        ResponseInterceptorMiddleware(self)
    }
}

/// Runs a ``ResponseInterceptor`` (or a closure of the same shape) as a ``Middleware``.
public struct ResponseInterceptorMiddleware: Middleware {
    private let intercept: @Sendable (Data, URLResponse) async throws -> (Data, URLResponse)

    /// Wraps an interceptor.
    public init(_ interceptor: some ResponseInterceptor) {
        self.intercept = { try await interceptor.intercept(data: $0, response: $1) }
    }

    /// Wraps a closure that looks at or changes each response.
    public init(_ intercept: @escaping @Sendable (Data, URLResponse) async throws -> (Data, URLResponse)) {
        self.intercept = intercept
    }

    /// Sends the request, reads the response body, and lets the interceptor change both.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        var answer = try await next(request, body, context)
        // A streamed answer is read by its caller as it arrives, of any size: never held here.
        guard !context.plan.streamsResponseBody else { return answer }
        let response = answer.response
        let responseBody = answer.body
        let limit = context.plan.responseBodyLimit ?? .max
        // A failed response keeps its status: its body is read only as far as its caller will
        // see it, so a huge error page does not turn into "response too large".
        let isSuccess = response.status.kind == .successful
        let data: Data
        if isSuccess {
            data = try await responseBody?.collect(upTo: limit) ?? Data()
        } else {
            data = try await context.plan.failedBody(responseBody) ?? Data()
        }
        guard let url = answer.redirects.last ?? request.url,
            let urlResponse = HTTPURLResponse(httpResponse: response, url: url)
        else {
            answer.body = HTTPBody(data)
            return answer
        }
        let (newData, newURLResponse) = try await intercept(data, urlResponse)
        answer.response = (newURLResponse as? HTTPURLResponse)?.httpResponse ?? response
        answer.body = HTTPBody(newData)
        return answer
    }
}
