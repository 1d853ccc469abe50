public import HTTPTypes

/// Checks header names and values before they reach the wire.
///
/// swift-http-types quietly turns illegal bytes into spaces; NetworkingKit refuses them instead,
/// so that a CR or LF smuggled into a value (header injection) fails loudly before anything is
/// sent rather than being rewritten. The client validates endpoint, request and default headers,
/// and the headers a ``RequestInterceptor`` returns; a ``Middleware`` that writes `HTTPFields`
/// directly gets swift-http-types' rewriting (illegal bytes become spaces), which is safe but
/// silent, so a middleware that copies untrusted text into a header should call ``validate(value:of:)``.
public enum HeaderValidation {
    /// Returns the field name for `name`, or throws when it is not an RFC 9110 token.
    public static func name(_ name: String) throws -> HTTPField.Name {
        guard let fieldName = HTTPField.Name(name) else {
            throw NetworkError.invalidRequest(reason: "'\(ControlCharacters.printable(name))' is not a valid header name")
        }
        return fieldName
    }

    /// Throws when `value` holds CR, LF, NUL or another control character (HTAB is allowed).
    public static func validate(value: String, of name: String) throws {
        if let byte = ControlCharacters.first(in: value, allowingTab: true) {
            throw NetworkError.invalidRequest(
                reason: "the value of header '\(ControlCharacters.printable(name))' contains \(ControlCharacters.name(of: byte))")
        }
    }

    /// Adds `headers` to `fields`, replacing fields of the same name, after validating each.
    public static func merge(_ headers: [String: String], into fields: inout HTTPFields) throws {
        // Sorted so that a request built twice from the same headers is identical.
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let fieldName = try self.name(name)
            try validate(value: value, of: name)
            fields[fieldName] = value
        }
    }
}
