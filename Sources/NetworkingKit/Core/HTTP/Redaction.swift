public import Foundation
public import HTTPTypes

/// Which headers and query parameters hold secrets, and how to hide them before anything is
/// logged or shown.
///
/// The defaults cover the credentials HTTP itself defines (`Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie` and the obsolete `Set-Cookie2`), the API-key
/// headers in common use (``RedirectPolicy/alwaysSensitiveHeaders``), and query, form and JSON
/// parameters named as secrets commonly are (``hidesCommonSecretNames``: `access_token`,
/// `client_secret`, `password`, `X-Amz-Signature`, `api_key`...). Declare your own secrets on top:
///
/// ```swift
/// let redaction = Redaction.default.adding(headers: ["X-API-Key"], queryParameters: ["api_key", "token"])
/// print(redaction.redact(URL(string: "https://api.example.com/films?api_key=k3y&page=2")!))
/// // https://api.example.com/films?api_key=%3Credacted%3E&page=2
/// ```
///
/// A hidden value becomes ``placeholder``; an authorization header keeps its scheme
/// (`Bearer <redacted>`) because the scheme helps diagnose a failure and reveals nothing. In a URL
/// the placeholder is percent-encoded (`%3Credacted%3E`) so that the URL stays valid.
/// Query parameter names are compared without regard to case and after percent-decoding: hiding
/// a value too many is harmless, showing one is not.
public struct Redaction: Sendable, Hashable {
    /// What a hidden value is replaced with.
    public static let placeholder = "<redacted>"

    /// ``placeholder``, percent-encoded for use inside a URL.
    public static let encodedPlaceholder = "%3Credacted%3E"

    /// The headers hidden by default: the credentials HTTP defines, the API-key headers in
    /// common use (``RedirectPolicy/alwaysSensitiveHeaders``, the one list of them), and the
    /// cookies an answer sets.
    public static let defaultSensitiveHeaders: Set<HTTPField.Name> = RedirectPolicy.alwaysSensitiveHeaders.union([
        // "Set-Cookie2" is a valid token, so the initializer cannot fail.
        .setCookie, HTTPField.Name("Set-Cookie2")!,
    ])

    /// Hides the default headers and no query parameters.
    public static let `default` = Redaction()

    /// The header names whose values are hidden (compared without regard to case).
    public var sensitiveHeaders: Set<HTTPField.Name>

    /// The query parameter names whose values are hidden, lowercased.
    public private(set) var sensitiveQueryParameters: Set<String>

    /// Whether query, form and JSON parameters named as secrets commonly are hidden too, besides
    /// ``sensitiveQueryParameters``: a name that contains `token`, `secret`, `password`,
    /// `passwd`, `signature`, `credential`, `apikey`, `api_key`, `api-key`, `private_key`,
    /// `access_key` or `session`, or is `key`, `sig`, `code`, `pwd` or `auth`, compared without
    /// case. On by default: a parameter hidden that was not secret costs a log reader little.
    public var hidesCommonSecretNames = true

    /// What a parameter name holds when it names a secret (see ``hidesCommonSecretNames``).
    private static let commonSecretFragments = [
        "token", "secret", "password", "passwd", "signature", "credential", "apikey", "api_key", "api-key",
        "private_key", "access_key", "session",
    ]

    /// Parameter names that are secrets whole (as parts of other names they are not: `keyword`).
    private static let commonSecretNames: Set<String> = ["key", "sig", "code", "pwd", "auth"]

    /// Whether `lowercased` (a parameter name, lowercase) is named as secrets commonly are.
    static func isCommonSecretName(_ lowercased: String) -> Bool {
        commonSecretNames.contains(lowercased) || commonSecretFragments.contains { lowercased.contains($0) }
    }

    /// Whether any parameter name can be sensitive: when none can, the scanners return at once.
    var hidesParameters: Bool { hidesCommonSecretNames || !sensitiveQueryParameters.isEmpty }

    /// Creates a redaction.
    /// - Parameters:
    ///   - sensitiveHeaders: The headers to hide; the HTTP credential headers by default.
    ///   - sensitiveQueryParameters: The query (and form) parameter names to hide, such as
    ///     `api_key` or `token`.
    public init(
        sensitiveHeaders: Set<HTTPField.Name> = Redaction.defaultSensitiveHeaders,
        sensitiveQueryParameters: Set<String> = []
    ) {
        self.sensitiveHeaders = sensitiveHeaders
        self.sensitiveQueryParameters = Set(sensitiveQueryParameters.map { $0.lowercased() })
    }

    /// This redaction with more headers and query parameters hidden.
    ///
    /// A header name that is not a valid HTTP field name is ignored: no request can carry it.
    public func adding(headers: [String] = [], queryParameters: [String] = []) -> Redaction {
        var copy = self
        copy.sensitiveHeaders.formUnion(headers.compactMap { HTTPField.Name($0) })
        copy.sensitiveQueryParameters.formUnion(queryParameters.map { $0.lowercased() })
        return copy
    }

    /// Whether values of the header `name` are hidden.
    public func isSensitive(_ name: HTTPField.Name) -> Bool {
        sensitiveHeaders.contains(name)
    }

    /// Whether values of the query parameter `name` (percent-encoded or not) are hidden.
    public func isSensitive(queryParameter name: String) -> Bool {
        guard hidesParameters else { return false }
        let decoded = (name.removingPercentEncoding ?? name).lowercased()
        if sensitiveQueryParameters.contains(decoded) || sensitiveQueryParameters.contains(name.lowercased()) { return true }
        return hidesCommonSecretNames && Self.isCommonSecretName(decoded)
    }

    /// The fields with every sensitive value replaced; authorization headers keep their scheme.
    public func redact(_ fields: HTTPFields) -> HTTPFields {
        var redacted = HTTPFields()
        for field in fields {
            if isSensitive(field.name) {
                redacted.append(HTTPField(name: field.name, value: Self.hiding(field.value)))
            } else {
                redacted.append(field)
            }
        }
        return redacted
    }

    /// The URL with the values of sensitive query parameters (and fragment parameters, where
    /// OAuth puts tokens) replaced by ``encodedPlaceholder``; names and other values are kept.
    ///
    /// User info (`https://user:password@host`) is dropped, being a credential by definition.
    public func redact(_ url: URL) -> URL {
        var text = url.absoluteString
        if var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.user != nil || components.password != nil
        {
            components.user = nil
            components.password = nil
            text = components.string ?? text
        }
        // The placeholder is percent-encoded, so the result parses whenever the input did.
        return URL(string: redactParameters(in: text, formAtStart: false)) ?? Self.withoutQuery(url)
    }

    /// The text with every secret this redaction can recognise hidden: sensitive query or form
    /// parameters (`?api_key=...`), sensitive header lines (`Authorization: ...`,
    /// `"Cookie": "..."`), JSON members named like a sensitive parameter (`"token": "..."`),
    /// and credentials after an authorization scheme (`Bearer ...`).
    ///
    /// Meant for error descriptions and logged bodies, which quote URLs and headers in free form.
    public func redact(_ text: String) -> String {
        var result = redactParameters(in: text, formAtStart: false)
        result = redactNamedValues(in: result)
        result = Self.redactCredentials(in: result)
        return result
    }

    /// The technical description of `error` (for a ``NetworkError``, its `description`, which
    /// quotes the request URL) with every secret this redaction recognises hidden.
    public func redact(_ error: any Error) -> String {
        redact(String(describing: error))
    }

    /// The description of a ``NetworkError`` with its secrets hidden; see ``redact(_:)-(Error)``.
    public func redact(_ error: NetworkError) -> String {
        redact(error.description)
    }

    /// `text` with `secrets` (values known to be secret, such as the credentials of the request
    /// being logged) replaced wherever they appear, after redacting it as ``redact(_:)-(String)``.
    ///
    /// Catches a secret quoted in a form no pattern knows. Values under four characters are
    /// skipped: replacing them would garble the text, and the patterns still apply.
    func redact(_ text: String, hiding secrets: [String]) -> String {
        // Patterns first: a known secret replaced first would leave `api_key=<redacted>`, which
        // the parameter pattern would then see as a value of its own.
        replacing(secrets, in: redact(text))
    }

    /// `text` with each of `secrets` (of four characters or more) replaced wherever it appears;
    /// no pattern is applied.
    func replacing(_ secrets: [String], in text: String) -> String {
        var result = text
        for secret in Set(secrets)
        where secret.count >= 4 && !Self.placeholder.contains(secret)
            && !Self.encodedPlaceholder.contains(secret) && result.contains(secret)
        {
            result = result.replacingOccurrences(of: secret, with: Self.placeholder)
        }
        return result
    }

    /// The secret values a request carries in its sensitive headers and query parameters, in every
    /// form a description might quote them (whole, credential only, percent-encoded or not).
    func secrets(of request: HTTPRequest) -> [String] {
        var secrets: [String] = []
        for field in request.headerFields where isSensitive(field.name) {
            secrets.append(field.value)
            if let credential = Self.credential(in: field.value) { secrets.append(credential) }
            // A cookie header carries several `name=value` pairs; each value is a secret.
            for pair in field.value.split(separator: ";") {
                if let value = pair.split(separator: "=", maxSplits: 1).dropFirst().first {
                    secrets.append(value.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        let query = request.path.flatMap { path in path.firstIndex(of: "?").map { path[path.index(after: $0)...] } }
        for item in (query ?? "").split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, isSensitive(queryParameter: String(parts[0])) else { continue }
            let value = String(parts[1])
            secrets.append(value)
            if let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding {
                secrets.append(decoded)
            }
        }
        return secrets
    }

    /// `value` hidden, keeping an authorization scheme: `Bearer abc` becomes `Bearer <redacted>`.
    static func hiding(_ value: String) -> String {
        if let scheme = scheme(of: value) {
            return "\(scheme) \(placeholder)"
        }
        return placeholder
    }

    /// The scheme of a `Scheme credentials` value, or `nil` when the value is a bare secret.
    private static func scheme(of value: String) -> Substring? {
        let trimmed = value.drop(while: { $0 == " " })
        guard let space = trimmed.firstIndex(of: " ") else { return nil }
        let scheme = trimmed[..<space]
        let isToken = !scheme.isEmpty && scheme.unicodeScalars.allSatisfy { isNameCharacter($0) }
        return isToken ? scheme : nil
    }

    /// The credentials after the scheme of an authorization value.
    private static func credential(in value: String) -> String? {
        guard scheme(of: value) != nil, let space = value.drop(while: { $0 == " " }).firstIndex(of: " ") else {
            return nil
        }
        let credential = value[space...].trimmingCharacters(in: .whitespaces)
        return credential.isEmpty ? nil : credential
    }

    /// The URL cut before its query and fragment, for the (unexpected) case where the redacted
    /// text no longer parses: losing the query is better than showing it.
    private static func withoutQuery(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return URL(string: "about:blank") ?? url
        }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.url ?? URL(string: "about:blank") ?? url
    }
}
