public import Foundation
public import HTTPTypes

/// An HTTP response that was not a success, with what is needed to report it.
public struct HTTPFailure: Sendable, CustomStringConvertible {
    /// How many bytes of an error body are kept at most.
    public static let maxBodyCopy = 64 * 1024

    /// The method and URL of the request that failed.
    public let request: RequestSummary
    /// The response head: status and headers.
    public let response: HTTPResponse
    /// The first bytes of the response body (at most ``maxBodyCopy``).
    public let body: Data
    /// Whether the body was longer than what ``body`` kept.
    public let isBodyTruncated: Bool
    /// The server's error body, decoded with the client's ``ServerErrorBody`` type when the body
    /// was JSON.
    public let serverError: (any ServerErrorBody)?

    /// Creates a failure.
    public init(
        request: RequestSummary,
        response: HTTPResponse,
        body: Data = Data(),
        isBodyTruncated: Bool = false,
        serverError: (any ServerErrorBody)? = nil
    ) {
        self.request = request
        self.response = response
        self.body = body
        self.isBodyTruncated = isBodyTruncated
        self.serverError = serverError
    }

    /// Reads the bounded copy of a failed response's body that a failure keeps.
    ///
    /// The body of an error is a courtesy: a connection that drops while reading it must not hide
    /// the status, so what arrived is kept; only cancellation is thrown.
    static func bodyCopy(of body: HTTPBody?, limit: Int) async throws -> (data: Data, truncated: Bool) {
        try await body?.prefix(upTo: min(limit, maxBodyCopy)) ?? (Data(), false)
    }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }

    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }

    /// The server's message, if its error body had one.
    public var serverMessage: String? {
        serverError?.message.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The per-field validation errors of the server's error body (for 422 above all).
    public var fieldErrors: [FieldError] {
        serverError?.fieldErrors ?? []
    }

    /// The server's error body as the client's configured type.
    public func serverError<Body: ServerErrorBody>(as type: Body.Type) -> Body? {
        serverError as? Body
    }

    /// `GET http://host/films/9 -> 404 Not Found`.
    public var description: String {
        "\(request) -> \(status.code) \(status.reasonPhrase)"
    }
}
