#if DemoAPI
import Foundation
import HTTPTypes  // names `HTTPField`, which Hummingbird does not re-export (it re-exports HTTPFields, HTTPRequest, HTTPResponse)
import Hummingbird

/// A failure a route answers with DemoAPI's JSON error body:
/// `{"message": "...", "code": "...", "errors": [{"field": "...", "message": "..."}]}`.
///
/// Routes throw it and ``ErrorMiddleware`` turns it into the response, so every error, from any
/// route or from the router itself, has the same shape clients can decode.
struct APIError: Error, Sendable {
    /// One invalid field of a request body; only 422 answers carry them.
    struct FieldError: Codable, Sendable, Equatable {
        var field: String
        var message: String
    }

    var status: HTTPResponse.Status
    var code: String
    var message: String
    var fieldErrors: [FieldError] = []
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: message)
    }

    static func validation(_ message: String, _ fieldErrors: [FieldError]) -> APIError {
        APIError(status: .unprocessableContent, code: "validation_failed", message: message, fieldErrors: fieldErrors)
    }

    static func tooLarge(limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: "payload_too_large", message: "The request body is larger than \(limit) bytes.")
    }

    /// The machine-readable `code` DemoAPI uses for a status when a route gives none of its own.
    static func defaultCode(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 408: "request_timeout"
        case 409: "conflict"
        case 413: "payload_too_large"
        case 422: "validation_failed"
        case 429: "too_many_requests"
        case 500: "internal_error"
        case 502: "bad_gateway"
        case 503: "service_unavailable"
        case 504: "gateway_timeout"
        default: "http_\(status.code)"
        }
    }

    /// The response for this error: JSON body, except for statuses that must not carry one.
    func response() -> Response {
        var headers = self.headers
        guard status.mayHaveBody else {
            return Response(status: status, headers: headers)
        }
        let body = ErrorBody(message: message, code: code, errors: fieldErrors.isEmpty ? nil : fieldErrors)
        // Encoding three strings cannot fail; the fallback only keeps this function non-throwing.
        let buffer = (try? JSONBody.encode(body)) ?? ByteBuffer(string: #"{"message":"error"}"#)
        headers[.contentType] = JSONBody.contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}

/// The wire shape of an error; `errors` is left out entirely when there are none.
private struct ErrorBody: Encodable {
    var message: String
    var code: String
    var errors: [APIError.FieldError]?
}

extension HTTPResponse.Status {
    /// Whether HTTP allows a body with this status (1xx, 204 and 304 have none).
    var mayHaveBody: Bool {
        !(100..<200).contains(code) && code != 204 && code != 304
    }
}

extension HTTPFields {
    /// Sets a header HTTPTypes has no constant for (`Link`, `X-Total-Count`). The names passed are
    /// literal valid tokens, so the failable lookup never fails; this only avoids a force unwrap.
    mutating func set(_ name: String, _ value: String) {
        if let name = HTTPField.Name(name) {
            self[name] = value
        }
    }
}
#endif
