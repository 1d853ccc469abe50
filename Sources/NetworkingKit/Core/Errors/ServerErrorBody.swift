/// The JSON error body a server sends with a failed response, as the client decodes it.
///
/// ``APIErrorBody`` reads the common shapes; an app whose API has its own set
/// `LiveAPIClient.Configuration.errorBodyType` to a type of its own.
public protocol ServerErrorBody: Decodable, Sendable {
    /// A message from the server, ideally one a user can read.
    var message: String? { get }
    /// A machine-readable error code.
    var code: String? { get }
    /// Errors tied to fields of the request (validation failures).
    var fieldErrors: [FieldError] { get }
}

/// A validation error tied to one field of a request.
public struct FieldError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The field, as the server names it.
    public let field: String
    /// What is wrong with it.
    public let message: String

    /// Creates a field error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `rating: must be between 1 and 5`.
    public var description: String { "\(field): \(message)" }
}

/// The default ``ServerErrorBody``: reads the error shapes common in REST APIs.
///
/// - `message`, else `error`, else `detail` as the message (`error` may also be an object with
///   its own `message` and `code`);
/// - `code` as a string or a number;
/// - field errors from `errors` (or `field_errors`) as a list of `{"field", "message"}` objects or
///   as an object from field to a message or a list of messages.
public struct APIErrorBody: ServerErrorBody, Equatable {
    /// The server's message.
    public let message: String?
    /// The server's error code, as text.
    public let code: String?
    /// The per-field validation errors.
    public let fieldErrors: [FieldError]

    /// Creates an error body.
    public init(message: String?, code: String? = nil, fieldErrors: [FieldError] = []) {
        self.message = message
        self.code = code
        self.fieldErrors = fieldErrors
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any of the shapes listed above; missing parts are `nil` or empty.
    public init(from decoder: any Decoder) throws {
        // Keys are matched both as written and as a snake_case decoder would convert them.
        let container = try decoder.container(keyedBy: AnyKey.self)
        func key(_ names: String...) -> AnyKey? {
            names.lazy.compactMap { name in container.allKeys.first { $0.stringValue == name } }.first
        }
        func string(_ key: AnyKey?) -> String? {
            guard let key else { return nil }
            if let value = try? container.decode(String.self, forKey: key) { return value }
            if let value = try? container.decode(Int.self, forKey: key) { return String(value) }
            return nil
        }

        var message = string(key("message")) ?? string(key("detail"))
        var code = string(key("code"))
        if let errorKey = key("error") {
            if let text = try? container.decode(String.self, forKey: errorKey) {
                message = message ?? text
            } else if let nested = try? container.decode(APIErrorBody.self, forKey: errorKey) {
                message = message ?? nested.message
                code = code ?? nested.code
            }
        }
        self.message = message
        self.code = code
        self.fieldErrors = Self.fieldErrors(in: container, at: key("errors", "fieldErrors", "field_errors"))
    }

    private static func fieldErrors(in container: KeyedDecodingContainer<AnyKey>, at key: AnyKey?) -> [FieldError] {
        guard let key else { return [] }
        if let list = try? container.decode([FieldError].self, forKey: key) {
            return list
        }
        if let byField = try? container.decode([String: [String]].self, forKey: key) {
            return byField.sorted { $0.key < $1.key }.flatMap { field, messages in
                messages.map { FieldError(field: field, message: $0) }
            }
        }
        if let byField = try? container.decode([String: String].self, forKey: key) {
            return byField.sorted { $0.key < $1.key }.map { FieldError(field: $0.key, message: $0.value) }
        }
        return []
    }
}
