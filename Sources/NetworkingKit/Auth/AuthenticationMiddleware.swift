public import Foundation
public import HTTPTypes
import Logging

/// Whether ``AuthenticationMiddleware`` sends a credential with a request.
private enum RequiresAuthenticationKey: RequestOptionKey {
    static let defaultValue = true
}

extension RequestOptions {
    /// Whether ``AuthenticationMiddleware`` adds the `Authorization` header to this request and
    /// refreshes the token when it is refused; `true` by default.
    ///
    /// Turn it off for endpoints that must go without the user's credential: signing in,
    /// refreshing the token (which would otherwise wait for itself), public resources.
    ///
    /// ```swift
    /// var options: RequestOptions {
    ///     var options = RequestOptions()
    ///     options.requiresAuthentication = false
    ///     return options
    /// }
    /// ```
    public var requiresAuthentication: Bool {
        get { self[RequiresAuthenticationKey.self] }
        set { self[RequiresAuthenticationKey.self] = newValue }
    }
}

/// Adds `Authorization: Bearer …` to each request, and on a 401 sends the request once more with
/// a refreshed token (the seeds' `AuthInterceptor` and `AuthenticationInterceptor`).
///
/// ```swift
/// let refresher = TokenRefresher(store: store) { token in try await authAPI.refresh(token) }
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: url,
///     middlewares: [logging, AuthenticationMiddleware(tokenProvider: refresher), deduplication, cache, retry]
/// ))
/// ```
///
/// Place it outside (before) de-duplication and caching, so that both see the credential that
/// was really sent and one user's answer never reaches another; and outside retry, so that a
/// retried attempt reuses the token instead of refreshing per attempt.
///
/// The token goes only to the origins it is for: the client's base URL's by default, or the
/// `origins` given. A request to any other origin (an endpoint's absolute URL elsewhere, a page
/// link a server wrote) goes without it, so a server cannot collect the user's token by naming
/// a host of its own.
///
/// For each request it:
/// 1. sends it as it is when the endpoint opted out (``RequestOptions/requiresAuthentication``),
///    when it already carries an `Authorization` header, when it is sent by a token refresh, when
///    it goes to another origin than the token's, or when there is no token;
/// 2. otherwise adds the provider's ``TokenProvider/validToken()``, which may refresh an
///    expiring token first;
/// 3. on a 401, asks the provider for a replacement (``TokenProvider/token(replacing:)``: one
///    refresh for all concurrent callers, no refresh for a token already replaced) and sends the
///    request again with it, once, with ``RequestContext/attempt`` one higher.
///
/// The 401 itself is the answer when there is no replacement, when the replacement would be the
/// same token, or when the request's body is a one-shot stream that the first attempt consumed.
/// A refresh that fails fails the call with the refresh's error.
///
/// A 401 is what counts as a refused credential unless the app says otherwise with
/// `isAuthenticationFailure`: an API that answers an expired token with a 403 and
/// `{"error": "token_expired"}`, say. The check sees every answer with a status of 400 or more,
/// with the start of its body (what an error keeps of it).
public struct AuthenticationMiddleware: Middleware {
    /// Decides whether an answer (400 or above) means the credential was refused, so that a
    /// refreshed token is worth a second attempt; it gets the start of the answer's body.
    public typealias FailureCheck = @Sendable (_ response: HTTPResponse, _ body: Data) -> Bool

    /// Where tokens come from; usually a ``TokenRefresher``.
    public let tokenProvider: any TokenProvider
    /// The app's own rule for a refused credential; `nil` for "the status is 401".
    let isAuthenticationFailure: FailureCheck?
    /// Where the token may go; `nil` for the client's base URL's origin.
    private let origins: [Origin]?
    /// The `Authorization` field of the token sent last.
    private let fields = LastResult<AuthToken, HTTPField>()
    /// Whether a Basic token (``AuthToken/basic(username:password:)``) may be sent over `http`,
    /// where anyone on the path reads the password; off by default, and a request that would
    /// send one fails with ``NetworkError/invalidRequest(reason:)`` instead.
    public var allowsBasicOverHTTP = false

    /// Creates the middleware.
    /// - Parameters:
    ///   - tokenProvider: Where tokens come from; usually a ``TokenRefresher``.
    ///   - origins: The URLs whose origins (scheme, host and port) the token is sent to; `nil`
    ///     (the default) for the client's base URL's. With neither, the token goes with every
    ///     request the app writes, and never with a request the library wrote from a server's
    ///     answer to another origin (a page link).
    ///   - isAuthenticationFailure: Which answers mean the credential was refused; `nil` (the
    ///     default) for a `401 Unauthorized`.
    public init(tokenProvider: any TokenProvider, origins: [URL]? = nil, isAuthenticationFailure: FailureCheck? = nil) {
        self.tokenProvider = tokenProvider
        self.origins = origins.map { $0.map(Origin.init) }
        self.isAuthenticationFailure = isAuthenticationFailure
    }

    /// Sends the request with the current token, and once more with a new one after a 401.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        // A credential the endpoint set itself is the endpoint's business: it is neither replaced
        // nor refreshed. A refresh's own request goes through as it is (see RefreshScope).
        guard context.options.requiresAuthentication, !request.headerFields.contains(.authorization),
            mayCarryToken(request, context: context), !RefreshScope.isRefreshing
        else {
            return try await next(request, body, context)
        }
        guard let token = try await tokenProvider.validToken() else {
            return try await next(request, body, context)
        }
        var answer = try await next(authorize(request, with: token), body, context)
        let response = answer.response
        if let isAuthenticationFailure {
            guard response.status.code >= 400 else { return answer }
            // An error's body is read now (bounded, as the error would keep it) for the app's check.
            answer.body = try await Self.buffered(answer.body, plan: context.plan)
            guard isAuthenticationFailure(response, answer.body?.bufferedData ?? Data()) else { return answer }
        } else {
            guard response.status == .unauthorized else { return answer }
        }
        if let body, !body.isReplayable {
            return answer
        }

        // The refusal is read now (it is small; a body read for the app's check already is): it is
        // the call's answer if no new token comes, and its connection is free again while the
        // refresh runs.
        answer.body = try await Self.buffered(answer.body, plan: context.plan)
        guard let fresh = try await tokenProvider.token(replacing: token), fresh.accessToken != token.accessToken else {
            return answer
        }
        var replayContext = context
        replayContext.attempt += 1
        context.logger.debug(
            "Token refused; sending again with a new token",
            metadata: ["attempt": "\(replayContext.attempt)"])
        return try await next(authorize(request, with: fresh), body, replayContext)
    }

    /// Whether `request` goes where the token is for: one of ``origins``, or the client's base
    /// URL's origin; and, when the library wrote it from an answer, the origin that answer's
    /// credentials were given for.
    private func mayCarryToken(_ request: HTTPRequest, context: RequestContext) -> Bool {
        if let given = context.options.credentialOrigin, !given.contains(request) { return false }
        if let origins { return origins.contains { $0.contains(request) } }
        return context.clientOrigin?.origin.contains(request) ?? true
    }

    /// `request` with the token in its `Authorization` header.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the token holds a CR, LF or other
    ///   control character, instead of letting swift-http-types quietly rewrite it.
    private func authorize(_ request: HTTPRequest, with token: AuthToken) throws -> HTTPRequest {
        if token.isBasic, !allowsBasicOverHTTP, request.scheme?.lowercased() != "https" {
            throw NetworkError.invalidRequest(
                reason: "Basic credentials would be sent over http, in clear text; use https, or allow http explicitly")
        }
        // The field of a token is made and checked once: every call until the next token sends it.
        let field = try fields.value(for: token) { token in
            let value = token.authorizationValue
            try HeaderValidation.validate(value: value, of: "Authorization")
            return HTTPField(name: .authorization, value: value)
        }
        var request = request
        // The request has no Authorization (an endpoint's own is never replaced): added, not set.
        request.headerFields.append(field)
        return request
    }

    /// A refused response's body, read into memory as far as the caller will see it
    /// (``CallPlan/failedBody(_:)``).
    private static func buffered(_ body: HTTPBody?, plan: CallPlan) async throws -> HTTPBody? {
        guard let body, body.bufferedData == nil else { return body }
        return try await plan.failedBody(body).map { HTTPBody($0) }
    }
}
