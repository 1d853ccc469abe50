import Foundation
import HTTPTypes

/// An endpoint's ``APIEndpoint/method`` and ``APIEndpoint/body`` of whatever type it declared them
/// with, as the request's method and body: the library's types as they are; an enum of method
/// names (the seeds' `enum HTTPMethod: String`) by its raw value; a ``RequestBody`` as the body it
/// describes; `Data` (the seeds' `var body: Data?`) as bytes already encoded; any other
/// `Encodable` value as JSON.
package enum EndpointMembers {
    /// The HTTP method that `method` names.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a value that names no method.
    package static func method<Method>(_ method: Method) throws -> HTTPRequest.Method {
        // The library's own type, nearly always: told by its metadata, without a dynamic cast.
        if Method.self == HTTPRequest.Method.self { return unsafeBitCast(method, to: HTTPRequest.Method.self) }
        let name = (method as? any RawRepresentable)?.rawValue as? String ?? method as? String
        // Methods are case-sensitive, and every standard one is in capitals: an enum whose raw
        // values are its case names (`case get, post`) means GET and POST.
        guard let name, let parsed = HTTPRequest.Method(name.uppercased()) else {
            throw NetworkError.invalidRequest(
                reason:
                    "the endpoint's method \(String(reflecting: method)) (\(Method.self)) names no HTTP method: "
                    + "return an HTTPMethod (.get, .post...) or a value whose String raw value is a method name")
        }
        return parsed
    }

    /// The request body that `body` describes; `nil` for none.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a value that is neither `Data` nor
    ///   `Encodable`.
    static func body<Body>(_ body: Body) throws -> RequestTarget.Body? {
        // The declaration the library gives, and nearly every endpoint keeps: no other cast.
        if Body.self == (any Encodable)?.self, let value = body as? (any Encodable)? {
            return value.map { .encodable($0) }
        }
        // A typed Request's (whose body is its requestBody, so `nil` here), or an endpoint that
        // gives a RequestBody as its body: sent as one.
        if Body.self == RequestBody?.self { return unsafeBitCast(body, to: RequestBody?.self).map { .content($0) } }
        if let content = body as? RequestBody { return .content(content) }
        // Bytes an endpoint encoded itself (seed 003's `try? JSONEncoder().encode(todo)`) go as
        // they are, not as a base64 string; JSON, as the seeds send them, unless a header says
        // otherwise. A `nil` of any optional type casts to `Data?` as `nil`: no body.
        if let data = body as? Data? {
            return data.map { .content(.data($0, contentType: "application/json")) }
        }
        if let value = body as? (any Encodable)? {
            return value.map { .encodable($0) }
        }
        throw NetworkError.invalidRequest(
            reason: "the endpoint's body (\(Body.self)) is neither Encodable nor Data: use requestBody for other kinds")
    }
}
