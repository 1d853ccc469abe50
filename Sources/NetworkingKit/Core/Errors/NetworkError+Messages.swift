public import Foundation
import HTTPTypes

// Two audiences: `errorDescription` is for the person using the app (no jargon, no URLs);
// `description` is for the developer and the logs (method, URL, status, server message).

extension NetworkError: LocalizedError {
    /// A message that can be shown to a user as it is.
    public var errorDescription: String? {
        switch self {
        case .invalidURL, .invalidRequest, .encodingFailed, .bodyNotReplayable:
            return "The app could not prepare this request. Please try again or contact support."
        case .badRequest(let failure):
            return failure.serverMessage ?? "The request could not be processed."
        case .unauthorized:
            return "Your session has expired. Please sign in again."
        case .invalidCredentials(let failure):
            return failure.serverMessage ?? "The username or password is incorrect."
        case .forbidden(let failure):
            return failure.serverMessage ?? "You don't have permission to do this."
        case .notFound(let failure):
            return failure.serverMessage ?? "The requested item could not be found."
        case .conflict(let failure):
            return failure.serverMessage ?? "This item was changed elsewhere. Reload it and try again."
        case .validationFailed(let failure):
            if !failure.fieldErrors.isEmpty {
                return failure.fieldErrors.map(failure.userMessage(for:)).joined(separator: "\n")
            }
            return failure.serverMessage ?? "Some of the information you entered is not valid."
        case .rateLimited(_, let retryAfter):
            if let delay = retryAfter?.delay(from: Date()), delay > 0, delay <= Double(RetryAfter.maxSeconds) {
                let seconds = Int(delay.rounded(.up))
                return "Too many requests. Try again in \(seconds) second\(seconds == 1 ? "" : "s")."
            }
            return "Too many requests. Please wait a moment and try again."
        case .clientError(let failure):
            return failure.serverMessage ?? "The request could not be completed (error \(failure.status.code))."
        case .serverError(let failure):
            return "Something went wrong on the server (error \(failure.status.code)). Please try again later."
        case .unexpectedStatus(let failure):
            return "The server sent an unexpected answer (status \(failure.status.code))."
        case .redirectFailed(let failure):
            return failure.userMessage
        case .transport(let failure):
            return failure.userMessage
        case .timeout:
            return "The server took too long to respond. Please try again."
        case .cancelled:
            return "The request was cancelled."
        case .responseTooLarge:
            return "The server's answer was too large to load."
        case .decodingFailed:
            return "The server's answer could not be read. Please try again later."
        case .unacceptableContentType:
            return "The server sent an answer of an unexpected kind. Check your connection (a network sign-in page?) and try again."
        case .fileFailed(let failure):
            switch failure.reason {
            case .notFound, .notAFile, .notReadable, .changedWhileReading:
                return "The file could not be read. Check that it still exists and try again."
            case .notWritable:
                return "The file could not be saved. Check that there is enough space and try again."
            }
        case .webSocket(let failure):
            switch failure.kind {
            case .connectionLost, .closed:
                return "The live connection to the server was lost. Please try again."
            case .unsupported:
                return "Live updates are not available on this device."
            default:
                return "The live connection to the server failed. Please try again later."
            }
        case .circuitOpen(let failure):
            if let delay = failure.retryAfter, delay > .zero {
                let seconds = Int(min(delay.timeInterval, Double(RetryAfter.maxSeconds)).rounded(.up))
                return "The service is unavailable right now. Try again in \(seconds) second\(seconds == 1 ? "" : "s")."
            }
            return "The service is unavailable right now. Please try again in a moment."
        case .unknown(let error):
            // An app's own error that says what to tell the user (a `LocalizedError`) is heard.
            if let message = (error as? any LocalizedError)?.errorDescription { return message }
            return "An unexpected error occurred. Please try again."
        }
    }

    /// Why the error happened, in technical terms (the same text as `description`).
    public var failureReason: String? {
        description
    }
}

extension NetworkError: CustomStringConvertible {
    /// A technical description for developers and logs: what failed, for which request, and why.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid URL '\(url)': \(reason)"
        case .invalidRequest(let reason):
            return "invalid request: \(reason)"
        case .encodingFailed(let reason, let underlying):
            return "could not encode the request body: \(reason)" + (underlying.map { " (\($0))" } ?? "")
        case .rateLimited(let failure, let retryAfter):
            return Self.describe(failure) + (retryAfter.map { "; Retry-After: \($0)" } ?? "")
        case .badRequest(let failure), .unauthorized(let failure), .invalidCredentials(let failure),
            .forbidden(let failure), .notFound(let failure), .conflict(let failure), .validationFailed(let failure),
            .clientError(let failure), .serverError(let failure), .unexpectedStatus(let failure):
            return Self.describe(failure)
        case .redirectFailed(let failure):
            return failure.description
        case .transport(let failure):
            return "transport failure: \(failure)"
        case .timeout(let request):
            return "timed out" + (request.map { ": \($0)" } ?? "")
        case .cancelled:
            return "cancelled"
        case .responseTooLarge(let limit, let request):
            return "response body larger than \(limit) bytes" + (request.map { ": \($0)" } ?? "")
        case .decodingFailed(let failure):
            return failure.request.map { "\($0): " + failure.description } ?? failure.description
        case .unacceptableContentType(let failure, let accepted):
            let received = failure.response.headerFields[.contentType] ?? "(none)"
            return "\(failure.description): Content-Type \(received) is not one of \(accepted.joined(separator: ", "))"
        case .fileFailed(let failure):
            return "file failed: \(failure)"
        case .webSocket(let failure):
            return "WebSocket: \(failure)" + (failure.request.map { " (\($0))" } ?? "")
        case .bodyNotReplayable:
            return "a one-shot streamed body cannot be sent twice"
        case .circuitOpen(let failure):
            return failure.description + (failure.request.map { " (\($0))" } ?? "")
        case .unknown(let error):
            return "unexpected error: \(error)"
        }
    }

    private static func describe(_ failure: HTTPFailure) -> String {
        var text = failure.description
        if let message = failure.serverMessage { text += ": \(message)" }
        if !failure.fieldErrors.isEmpty {
            text += " [" + failure.fieldErrors.map(\.description).joined(separator: "; ") + "]"
        }
        return text
    }
}

extension RedirectFailure {
    /// The user-facing message for each reason a redirect was not followed.
    var userMessage: String {
        switch reason {
        case .tooManyRedirects, .loop:
            return "The server redirected the request too many times. Please try again later."
        case .insecureRedirect:
            return "The server tried to move the connection to an insecure address, so the request was stopped."
        case .invalidLocation:
            return "The server sent an invalid redirect. Please try again later."
        case .bodyNotReplayable:
            return "The upload was redirected and could not be sent again. Please try again."
        }
    }
}

extension TransportFailure {
    /// The user-facing message for each kind of transport failure.
    var userMessage: String {
        switch kind {
        case .notConnected:
            return "You appear to be offline. Check your internet connection and try again."
        case .hostNotFound, .connectionRefused:
            return "Unable to reach the server. Check your internet connection and try again."
        case .connectionLost, .truncatedBody:
            return "The connection was interrupted. Please try again."
        case .secureConnectionFailed:
            return "A secure connection to the server could not be established."
        case .invalidResponse, .other:
            return "Unable to connect to the server. Please try again."
        }
    }
}
