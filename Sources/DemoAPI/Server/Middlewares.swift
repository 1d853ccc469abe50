#if DemoAPI
import Hummingbird
import Logging
import NIOCore

/// Turns every error a route or the router throws into DemoAPI's JSON error body, so clients under
/// test always get the same shape (including for unknown routes) rather than Hummingbird's own.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = DemoRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response()
        } catch let error as HTTPError {
            let message: String
            if let body = error.body {
                message = body
            } else if error.status == .notFound {
                message = "No route for \(request.method.rawValue) \(request.uri.path)."
            } else {
                message = "\(error.status.code) \(error.status.reasonPhrase)"
            }
            let code = APIError.defaultCode(for: error.status)
            return APIError(status: error.status, code: code, message: message, headers: error.headers).response()
        } catch is NIOTooManyBytesError {
            return APIError(status: .contentTooLarge, code: "payload_too_large", message: "The request body is too large.").response()
        } catch let error as CancellationError {
            // The server is stopping; there is nobody left to answer.
            throw error
        } catch {
            context.logger.debug("Unexpected error", metadata: ["error": "\(error)"])
            return APIError(status: .internalServerError, code: "internal_error", message: "Unexpected error: \(error)").response()
        }
    }
}

/// Counts each request under its route pattern (at arrival, so requests still waiting on a delay are
/// already counted) and each 304 answered.
@available(macOS 14, iOS 17, tvOS 17, *)
struct StatsMiddleware: RouterMiddleware {
    typealias Context = DemoRequestContext

    let stats: DemoStats

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // No endpoint path means no route matched; those are not counted.
        if let pattern = context.endpointPath {
            let conditional = request.headers[.ifNoneMatch] != nil || request.headers[.ifModifiedSince] != nil
            stats.recordRequest(route: "\(request.method.rawValue) \(pattern)", conditional: conditional)
        }
        let response = try await next(request, context)
        if response.status == .notModified {
            stats.recordNotModified()
        }
        return response
    }
}
#endif
