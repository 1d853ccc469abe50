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
    /// The names a user reads for fields, by key (the client's
    /// ``LiveAPIClient/Configuration/fieldNames``); see ``userMessage(for:)``.
    public let fieldNames: [String: String]

    /// Creates a failure.
    public init(
        request: RequestSummary,
        response: HTTPResponse,
        body: Data = Data(),
        isBodyTruncated: Bool = false,
        serverError: (any ServerErrorBody)? = nil,
        fieldNames: [String: String] = [:]
    ) {
        self.request = request
        self.response = response
        self.body = body
        self.isBodyTruncated = isBodyTruncated
        self.serverError = serverError
        self.fieldNames = fieldNames
    }

    /// A field error as a user reads it: the field's name from ``fieldNames``, or its key made
    /// readable (`userId` and `user_id` become "User id"), then the server's message:
    /// "Owner: is required".
    public func userMessage(for error: FieldError) -> String {
        "\(fieldNames[error.field] ?? Self.readableName(of: error.field)): \(error.message)"
    }

    /// `userId`, `user_id`, `user-id` and `user.id` as "User id"; the last part of a dotted path
    /// names the field (`address.zipCode` reads "Zip code").
    static func readableName(of key: String) -> String {
        let last = key.split(separator: ".").last.map(String.init) ?? key
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in last {
            if character == "_" || character == "-" || character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                words.append(word)
                word = String(character)
            } else {
                word.append(character)
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        guard let first = words.first else { return key }
        // An acronym (URL, ID) keeps its case; other words are lowercased after the first.
        let rest = words.dropFirst().map { $0.allSatisfy(\.isUppercase) ? $0 : $0.lowercased() }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + rest).joined(separator: " ")
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
        status.reasonPhrase.isEmpty
            ? "\(request) -> \(status.code)" : "\(request) -> \(status.code) \(status.reasonPhrase)"
    }
}
