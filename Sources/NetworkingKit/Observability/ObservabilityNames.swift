/// Short, stable names for what went wrong in a call, shared by the metrics and tracing
/// middlewares (a metric dimension, a span's `error.type`).
enum ObservabilityNames {
    /// The status class of a status code: `"2xx"`, `"4xx"`, and so on.
    static func statusClass(_ code: Int) -> String {
        switch code {
        case 100..<200: "1xx"
        case 200..<300: "2xx"
        case 300..<400: "3xx"
        case 400..<500: "4xx"
        case 500..<600: "5xx"
        default: "other"
        }
    }

    /// The kind of an error, with no detail that could carry a URL or secret: the
    /// ``NetworkError`` case name, or `"unknown"` for another error type.
    static func errorKind(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        guard let error = error as? NetworkError else { return "unknown" }
        switch error {
        case .invalidURL: return "invalid_url"
        case .invalidRequest: return "invalid_request"
        case .encodingFailed: return "encoding_failed"
        case .badRequest, .unauthorized, .invalidCredentials, .forbidden, .notFound, .conflict, .validationFailed,
            .rateLimited, .clientError, .serverError, .unexpectedStatus:
            return error.statusCode.map(String.init) ?? "http_status"
        case .redirectFailed: return "redirect_failed"
        case .transport: return "transport"
        case .timeout: return "timeout"
        case .cancelled: return "cancelled"
        case .responseTooLarge: return "response_too_large"
        case .decodingFailed: return "decoding_failed"
        case .unacceptableContentType: return "unacceptable_content_type"
        case .bodyNotReplayable: return "body_not_replayable"
        case .fileFailed: return "file_failed"
        case .webSocket: return "websocket"
        case .circuitOpen: return "circuit_open"
        case .unknown: return "unknown"
        }
    }
}
