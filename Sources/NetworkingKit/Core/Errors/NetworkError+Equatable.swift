import Foundation

/// Two errors are equal when they say the same thing went wrong: the same case with the same
/// defining values. The call it happened to (the request), the headers, the body and underlying
/// errors are context, and are not compared, so that a test can write the error it expects:
///
/// ```swift
/// await #expect(throws: NetworkError.httpError(statusCode: 404)) {
///     try await client.send(Request<Film>(path: "/films/nope"))
/// }
/// ```
///
/// - HTTP cases: the status code (and a 429's `Retry-After`).
/// - `transport`: the kind and the code; `redirectFailed` and `fileFailed`: the reason (and the
///   file); `decodingFailed`: the type and the coding path; `responseTooLarge`: the limit;
///   `unacceptableContentType`: the type received and those accepted.
/// - `webSocket`: the kind and the close frame; `circuitOpen`: the key.
/// - `invalidURL`, `invalidRequest`, `encodingFailed`: their texts.
/// - `unknown`: the wrapped errors' types and descriptions.
extension NetworkError: Equatable {
    public static func == (lhs: NetworkError, rhs: NetworkError) -> Bool {
        switch (lhs, rhs) {
        case let (.invalidURL(left, leftReason), .invalidURL(right, rightReason)):
            left == right && leftReason == rightReason
        case let (.invalidRequest(left), .invalidRequest(right)):
            left == right
        case let (.encodingFailed(left, _), .encodingFailed(right, _)):
            left == right
        case let (.badRequest(left), .badRequest(right)), let (.unauthorized(left), .unauthorized(right)),
            let (.invalidCredentials(left), .invalidCredentials(right)), let (.forbidden(left), .forbidden(right)),
            let (.notFound(left), .notFound(right)), let (.conflict(left), .conflict(right)),
            let (.validationFailed(left), .validationFailed(right)), let (.clientError(left), .clientError(right)),
            let (.serverError(left), .serverError(right)), let (.unexpectedStatus(left), .unexpectedStatus(right)):
            left.status == right.status
        case let (.rateLimited(left, leftAfter), .rateLimited(right, rightAfter)):
            left.status == right.status && leftAfter == rightAfter
        case let (.redirectFailed(left), .redirectFailed(right)):
            left.reason == right.reason
        case let (.transport(left), .transport(right)):
            left.kind == right.kind && left.code == right.code
        case (.timeout, .timeout), (.cancelled, .cancelled), (.bodyNotReplayable, .bodyNotReplayable):
            true
        case let (.responseTooLarge(left, _), .responseTooLarge(right, _)):
            left == right
        case let (.unacceptableContentType(left, leftAccepted), .unacceptableContentType(right, rightAccepted)):
            left.response.headerFields[.contentType] == right.response.headerFields[.contentType] && leftAccepted == rightAccepted
        case let (.decodingFailed(left), .decodingFailed(right)):
            left.typeName == right.typeName && left.codingPath == right.codingPath
        case let (.fileFailed(left), .fileFailed(right)):
            left.reason == right.reason && left.url == right.url
        case let (.webSocket(left), .webSocket(right)):
            left.kind == right.kind && left.close == right.close
        case let (.circuitOpen(left), .circuitOpen(right)):
            left.key == right.key
        case let (.unknown(left), .unknown(right)):
            type(of: left) == type(of: right) && String(describing: left) == String(describing: right)
        default:
            false
        }
    }
}
