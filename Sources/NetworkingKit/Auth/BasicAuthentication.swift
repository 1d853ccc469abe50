public import Foundation
public import HTTPTypes

extension AuthToken {
    /// HTTP Basic credentials (RFC 7617) as a token: `Authorization: Basic <base64 of user:password>`,
    /// the user name and password in UTF-8. For a ``TokenProvider`` of your own, or use
    /// ``BasicAuthentication``.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a user name with a colon (the scheme
    ///   could not tell where it ends) or either part with a control character.
    public static func basic(username: String, password: String) throws -> AuthToken {
        if username.contains(":") {
            throw NetworkError.invalidRequest(reason: "a Basic user name may not contain a colon (RFC 7617)")
        }
        if ControlCharacters.first(in: username) != nil || ControlCharacters.first(in: password) != nil {
            throw NetworkError.invalidRequest(reason: "Basic credentials may not contain control characters")
        }
        return AuthToken(accessToken: Data("\(username):\(password)".utf8).base64EncodedString(), tokenType: "Basic")
    }

    /// Whether the token is Basic credentials, which anyone on the path can read. Compared without
    /// making a lowercased copy: it runs on every authenticated call.
    var isBasic: Bool {
        tokenType.utf8.count == 5 && zip(tokenType.utf8, "basic".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}

/// HTTP Basic authentication (RFC 7617) as a middleware: the user name and password in the
/// `Authorization` header of every request to the client's origin (or the origins you name).
///
/// ```swift
/// let basic = try BasicAuthentication(username: "woody", password: "andy")
/// let client = LiveAPIClient(configuration: .init(baseURL: apiURL, middlewares: [basic]))
/// ```
///
/// Basic credentials are a password in clear text (base64 is no protection), so they are sent over
/// `https` only: a request over `http` fails with ``NetworkError/invalidRequest(reason:)`` before
/// anything is sent, unless `allowsHTTP` says otherwise (a server on the same machine, say). They
/// follow the rules of ``AuthenticationMiddleware``: never to another origin, not on a redirect
/// that leaves it, not for an endpoint whose ``RequestOptions/requiresAuthentication`` is false, not
/// over a request that has its own `Authorization`. A `401` reaches the caller as
/// ``NetworkError/unauthorized(_:)``: there is nothing to refresh.
public struct BasicAuthentication: Middleware {
    private let authentication: AuthenticationMiddleware

    /// Basic credentials for the client's origin, or for `origins`.
    /// - Parameters:
    ///   - username: The user name; it may not contain a colon.
    ///   - password: The password.
    ///   - origins: Where the credentials may go; the client's base URL's origin by default.
    ///   - allowsHTTP: Whether they may be sent over `http`, in clear text.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a user name with a colon, or a
    ///   control character in either.
    public init(username: String, password: String, origins: [URL]? = nil, allowsHTTP: Bool = false) throws {
        var authentication = AuthenticationMiddleware(
            tokenProvider: FixedCredentials(token: try AuthToken.basic(username: username, password: password)), origins: origins)
        authentication.allowsBasicOverHTTP = allowsHTTP
        self.authentication = authentication
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        try await authentication.intercept(request, body: body, context: context, next: next)
    }

    private struct FixedCredentials: TokenProvider {
        let token: AuthToken
        func validToken() async throws -> AuthToken? { token }
    }
}
