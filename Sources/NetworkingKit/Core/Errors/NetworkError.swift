import Foundation
import HTTPTypes

/// Every way a call through NetworkingKit can fail, in one type.
///
/// Each HTTP status class a caller handles differently has its own case, so code reads as the
/// situation it handles:
///
/// ```swift
/// do {
///     film = try await client.request(PixarAPIEndpoint.filmDetail(id: id), as: PixarFilm.self)
/// } catch NetworkError.notFound {
///     showMissingFilm()
/// } catch let error as NetworkError {
///     alertMessage = error.localizedDescription   // written for a person to read
/// }
/// ```
///
/// Errors with an HTTP response carry it in an ``HTTPFailure``: the request's method and URL, the
/// status, the headers, a bounded copy of the body and the server's decoded error body.
/// `localizedDescription` is a message a user can read; `description` has the technical detail.
///
/// New cases may be added in a minor release (a new situation deserves its own case rather than
/// hiding in ``unknown(_:)``), so a `switch` outside NetworkingKit ends with `@unknown default`,
/// which the compiler asks for; `catch NetworkError.notFound` and `if case` need nothing:
///
/// ```swift
/// func message(for error: NetworkError) -> String {
///     switch error {
///     case .notFound: "This film is no longer available."
///     case .unauthorized, .invalidCredentials: "Please sign in again."
///     case .timeout, .transport: "Check your connection and try again."
///     default: error.localizedDescription
///     }
/// }
/// ```
@nonexhaustive
public enum NetworkError: Error, Sendable {
    /// The request's URL could not be built: the base URL is missing, relative or not HTTP(S).
    case invalidURL(String, reason: String)
    /// The request is malformed (an illegal header name or value) and was not sent.
    case invalidRequest(reason: String)
    /// The request body could not be encoded; nothing was sent.
    case encodingFailed(reason: String, underlying: (any Error)?)

    /// The server answered 400 Bad Request.
    case badRequest(HTTPFailure)
    /// The server answered 401 Unauthorized: the credential is missing, wrong or expired.
    case unauthorized(HTTPFailure)
    /// Signing in was refused: a 401 answered to a sign-in request (``AuthManager/login(username:password:)``),
    /// so the username or password is wrong, not a session expired. The server's message, when it
    /// sent one, is the `localizedDescription`.
    case invalidCredentials(HTTPFailure)
    /// The server answered 403 Forbidden.
    case forbidden(HTTPFailure)
    /// The server answered 404 Not Found.
    case notFound(HTTPFailure)
    /// The server answered 409 Conflict.
    case conflict(HTTPFailure)
    /// The server answered 422 Unprocessable Content; ``HTTPFailure/fieldErrors`` says which fields.
    case validationFailed(HTTPFailure)
    /// The server answered 429 Too Many Requests, with its `Retry-After` when it sent one.
    case rateLimited(HTTPFailure, retryAfter: RetryAfter?)
    /// The server answered another 4xx status.
    case clientError(HTTPFailure)
    /// The server answered a 5xx status.
    case serverError(HTTPFailure)
    /// The server answered a status the call does not accept (a 1xx or 3xx that was not handled).
    case unexpectedStatus(HTTPFailure)

    /// A redirect was not followed: too many, a loop, https to http, a bad `Location`, or a body
    /// that cannot be sent again; see ``RedirectFailure/reason``.
    case redirectFailed(RedirectFailure)

    /// The exchange failed below HTTP: no connection, connection lost, TLS, a truncated body.
    case transport(TransportFailure)
    /// The server did not answer in time.
    case timeout(RequestSummary?)
    /// The calling task was cancelled.
    case cancelled
    /// The response body was larger than the client accepts; reading stopped at the limit.
    case responseTooLarge(limit: Int, request: RequestSummary?)
    /// The response arrived but could not be decoded into the expected type.
    case decodingFailed(DecodingFailure)
    /// The answer's `Content-Type` is not one the call decodes (an HTML page from a proxy or a
    /// captive portal where JSON was expected): what arrived, and the types that were accepted;
    /// see ``RequestOptions/acceptableContentTypes``.
    case unacceptableContentType(HTTPFailure, accepted: [String])
    /// A one-shot streamed body was asked to be sent a second time (by a retry or redirect).
    case bodyNotReplayable
    /// A local file of the transfer could not be used: a file to upload is missing, unreadable or
    /// changed size while it was sent, or a download could not be written; see ``FileFailure/reason``.
    case fileFailed(FileFailure)
    /// A WebSocket connection did not open as one, or ended other than by a close handshake; see
    /// ``WebSocketFailure/kind``.
    case webSocket(WebSocketFailure)
    /// A ``CircuitBreaker`` refused the call without sending it: the service failed too often
    /// lately. ``CircuitOpenFailure/retryAfter`` says when it is tried again.
    case circuitOpen(CircuitOpenFailure)
    /// An error that is not a `NetworkError`, thrown by a middleware or interceptor of the app.
    case unknown(any Error)

    /// Maps a non-success HTTP response to its case.
    /// - Parameter failure: The response and what was read of its body.
    public init(failure: HTTPFailure) {
        switch failure.status.code {
        case 400: self = .badRequest(failure)
        case 401: self = .unauthorized(failure)
        case 403: self = .forbidden(failure)
        case 404: self = .notFound(failure)
        case 409: self = .conflict(failure)
        case 422: self = .validationFailed(failure)
        case 429:
            let retryAfter = failure.headerFields[.retryAfter].flatMap { RetryAfter(headerValue: $0) }
            self = .rateLimited(failure, retryAfter: retryAfter)
        case 400..<500: self = .clientError(failure)
        case 500..<600: self = .serverError(failure)
        default: self = .unexpectedStatus(failure)
        }
    }

    /// The HTTP response behind the error, for the status cases.
    public var failure: HTTPFailure? {
        switch self {
        case .badRequest(let failure), .unauthorized(let failure), .invalidCredentials(let failure),
            .forbidden(let failure), .notFound(let failure), .conflict(let failure),
            .validationFailed(let failure), .rateLimited(let failure, _), .clientError(let failure),
            .serverError(let failure), .unexpectedStatus(let failure), .unacceptableContentType(let failure, _):
            return failure
        default:
            return nil
        }
    }

    /// The HTTP status code, when the server answered.
    public var statusCode: Int? {
        failure?.status.code
    }

    /// The method and URL of the request that failed, when known.
    public var request: RequestSummary? {
        switch self {
        case .timeout(let request), .responseTooLarge(_, let request):
            return request
        case .transport(let failure):
            return failure.request
        case .decodingFailed(let failure):
            return failure.request
        case .redirectFailed(let failure):
            return failure.request
        case .webSocket(let failure):
            return failure.request
        case .circuitOpen(let failure):
            return failure.request
        default:
            return failure?.request
        }
    }

    /// The same error with `request` attached where the case has room for it and none is set yet.
    ///
    /// Lower layers (a body reader, a transport) may not know the request; the client fills it in.
    @_spi(Transport) public func attaching(_ request: RequestSummary) -> NetworkError {
        switch self {
        case .timeout(nil):
            return .timeout(request)
        case .responseTooLarge(let limit, nil):
            return .responseTooLarge(limit: limit, request: request)
        case .transport(var failure) where failure.request == nil:
            failure.request = request
            return .transport(failure)
        case .webSocket(var failure) where failure.request == nil:
            failure.request = request
            return .webSocket(failure)
        case .circuitOpen(var failure) where failure.request == nil:
            failure.request = request
            return .circuitOpen(failure)
        default:
            return self
        }
    }
}
