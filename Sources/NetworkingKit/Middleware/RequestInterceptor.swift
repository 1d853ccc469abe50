public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
import Foundation
#else
public import Foundation
#endif

/// A step that may change each request before it is sent: the interceptor shape of seeds 000,
/// 002 and 003, `(URLRequest) async throws -> URLRequest`.
///
/// Existing interceptors work unchanged; put them in the chain with ``middleware-25kw2``:
///
/// ```swift
/// struct AuthInterceptor: RequestInterceptor {
///     let tokenStore: any TokenStore
///     func intercept(_ request: URLRequest) async throws -> URLRequest {
///         var request = request
///         if let token = try await tokenStore.token() {
///             request.setValue(token.authorizationValue, forHTTPHeaderField: "Authorization")
///         }
///         return request
///     }
/// }
/// let client = LiveAPIClient(baseURL: url, middlewares: [AuthInterceptor(tokenStore: store).middleware])
/// ```
///
/// For anything that must see the response too (refresh on 401, retry), write a ``Middleware``.
public protocol RequestInterceptor: Sendable {
    /// Returns the request to send in place of `request`.
    func intercept(_ request: URLRequest) async throws -> URLRequest
}

extension RequestInterceptor {
    /// This interceptor as a middleware, to place in a client's chain.
    public var middleware: RequestInterceptorMiddleware {
        RequestInterceptorMiddleware(self)
    }
}

/// Runs a ``RequestInterceptor`` (or a closure of the same shape) as a ``Middleware``.
///
/// The interceptor sees the request as a `URLRequest` with its body in `httpBody` when the body
/// is buffered (a streamed body is not shown, and is sent as it is unless the interceptor sets a
/// new `httpBody`). The headers it returns are validated like any others: a CR or LF in a value
/// fails the call before anything is sent.
public struct RequestInterceptorMiddleware: Middleware {
    private let intercept: @Sendable (URLRequest) async throws -> URLRequest

    /// Wraps an interceptor.
    public init(_ interceptor: some RequestInterceptor) {
        self.intercept = { try await interceptor.intercept($0) }
    }

    /// Wraps a closure that changes each request.
    public init(_ intercept: @escaping @Sendable (URLRequest) async throws -> URLRequest) {
        self.intercept = intercept
    }

    /// Converts the request to a `URLRequest`, lets the interceptor change it, and sends the result.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw NetworkError.invalidRequest(reason: "the request has no URL to give to an interceptor")
        }
        let originalBody = body?.bufferedData
        urlRequest.httpBody = originalBody
        let changed = try await intercept(urlRequest)

        for (name, value) in changed.allHTTPHeaderFields ?? [:] {
            _ = try HeaderValidation.name(name)
            try HeaderValidation.validate(value: value, of: name)
        }
        guard let newRequest = changed.httpRequest else {
            throw NetworkError.invalidRequest(reason: "the interceptor returned a request with no URL or method")
        }
        let newBody = changed.httpBody == originalBody ? body : changed.httpBody.map { HTTPBody($0) }
        return try await next(newRequest, newBody, context)
    }
}
