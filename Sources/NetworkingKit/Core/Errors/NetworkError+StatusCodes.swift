public import Foundation
import HTTPTypes

/// The errors for a status code alone, as code written against URLSession builds them
/// (`NetworkError.serverError(statusCode: 503)`): for tests, mocks and ported error handling.
/// Each is the case the client itself throws for that status (``NetworkError/init(failure:)``),
/// without a request or headers; compared with ``NetworkError/==(_:_:)``, it equals the client's.
extension NetworkError {
    /// The error the client throws for an answer with `statusCode`: `404` is ``notFound(_:)``,
    /// `503` ``serverError(_:)``, `422` ``validationFailed(_:)``…, with `data` as the body.
    public static func httpError(statusCode: Int, data: Data = Data()) -> NetworkError {
        NetworkError(failure: placeholderFailure(statusCode: statusCode, body: data))
    }

    /// A 5xx answer: `NetworkError.serverError(statusCode: 503)`. Another status gives its own
    /// case, as ``httpError(statusCode:data:)`` does.
    public static func serverError(statusCode: Int) -> NetworkError {
        httpError(statusCode: statusCode)
    }

    /// A 4xx answer with the server's `message`, if any, as the body a user reads
    /// (`{"message": …}`). A 404 is ``notFound(_:)``, a 401 ``unauthorized(_:)``…
    public static func clientError(statusCode: Int, message: String?) -> NetworkError {
        let body = message.flatMap { try? JSONEncoder().encode(["message": $0]) } ?? Data()
        let serverError = message.map { APIErrorBody(message: $0) }
        return NetworkError(failure: placeholderFailure(statusCode: statusCode, body: body, serverError: serverError))
    }

    private static func placeholderFailure(
        statusCode: Int, body: Data, serverError: (any ServerErrorBody)? = nil
    ) -> HTTPFailure {
        // Out of HTTP's range, a status becomes a 500, the way a server error would read.
        let status = HTTPResponse.Status(code: (100...999).contains(statusCode) ? statusCode : 500)
        return HTTPFailure(
            request: RequestSummary(method: .get, url: nil), response: HTTPResponse(status: status), body: body,
            serverError: serverError)
    }
}
