import HTTPTypes

/// The origin a call's credentials were given for, when it is not the client's base URL's.
private enum CredentialOriginKey: RequestOptionKey {
    static let defaultValue: Origin? = nil
}

extension RequestOptions {
    /// The origin whose credentials this request carries, set on a request the library writes
    /// from a server's answer (a page's `Link`): sent anywhere else, the request goes without
    /// `Authorization`, `Cookie`, `Proxy-Authorization` and the headers the redirect policy
    /// declares sensitive, whether the caller, the client's defaults or
    /// ``AuthenticationMiddleware`` would add them. ``Origin/nowhere`` withholds them everywhere.
    var credentialOrigin: Origin? {
        get { self[CredentialOriginKey.self] }
        set { self[CredentialOriginKey.self] = newValue }
    }
}

extension HTTPFields {
    /// Removes every field named in `names`.
    mutating func removeAll(named names: Set<HTTPField.Name>) {
        for name in names where contains(name) { self[name] = nil }
    }
}

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
