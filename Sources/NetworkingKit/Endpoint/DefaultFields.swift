import HTTPTypes

/// A client's default header fields, validated once, and the same without credentials for a
/// request to another origin than the base URL's: defaults are given for the client's own API.
struct DefaultFields {
    /// Every default field.
    let fields: HTTPFields
    /// The default fields a request to another origin gets.
    private let withoutCredentials: HTTPFields
    /// The base URL's origin; `nil` (no base URL) sends every field everywhere.
    private let origin: Origin?

    /// - Parameters:
    ///   - fields: The validated default fields.
    ///   - origin: The client's base URL's origin.
    ///   - credentials: The names that carry credentials (the redirect policy's sensitive headers).
    init(_ fields: HTTPFields, origin: Origin?, credentials: Set<HTTPField.Name>) {
        self.fields = fields
        self.origin = origin
        var stripped = fields
        stripped.removeAll(named: credentials)
        withoutCredentials = stripped
    }

    /// The default fields for `request`.
    func fields(for request: HTTPRequest) -> HTTPFields {
        guard let origin, !origin.contains(request) else { return fields }
        return withoutCredentials
    }
}
