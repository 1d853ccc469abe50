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
