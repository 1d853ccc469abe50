#if DemoAPI
import Foundation
import Hummingbird

/// `/auth/login`, `/auth/refresh`, `/auth/expire` and `/me`: bearer tokens with rotation and test
/// hooks, for testing a client's authentication middleware and single-flight token refresh.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AuthRoutes: Sendable {
    let state: DemoState

    static let realm = "DemoAPI"

    func register(on router: Router<DemoRequestContext>) {
        router.post("/auth/login") { request, _ in
            try await login(request)
        }
        router.post("/auth/refresh") { request, _ in
            try await refresh(request)
        }
        router.post("/auth/expire") { request, _ in
            guard let username = request.query("username"), !username.isEmpty else {
                throw APIError.badRequest("The query parameter 'username' is required.")
            }
            guard state.auth.withLock({ $0.expireAccessToken(of: username) }) else {
                throw APIError.notFound("No user named '\(username)'.")
            }
            return Response(status: .noContent)
        }
        router.get("/me") { request, _ in
            try me(request)
        }
        router.get("/auth/basic") { request, _ in
            try basic(request)
        }
    }

    /// The login's fields: a JSON object, or a form (`application/x-www-form-urlencoded`) as
    /// OAuth 2's password grant sends them (`grant_type=password&username=...&password=...`).
    static func credentials(from request: Request) async throws -> [String: JSONValue] {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return try await JSONBody.object(from: request)
        }
        let buffer = try await JSONBody.collect(request, limit: JSONBody.defaultLimit)
        var fields: [String: JSONValue] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // `+` is a space in a form; a malformed escape is the client's mistake, said as one.
            let decoded = parts.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decoded.first ?? nil, let value = decoded.count > 1 ? decoded[1] : "" else {
                throw APIError.badRequest("The form body is not valid application/x-www-form-urlencoded.")
            }
            fields[name] = .string(value)
        }
        return fields
    }

    private struct TokenPair: Encodable {
        var accessToken: String
        var refreshToken: String
        var tokenType = "Bearer"
        var expiresIn: Int

        private enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    private struct Me: Encodable {
        var username: String
        var displayName: String

        private enum CodingKeys: String, CodingKey {
            case username
            case displayName = "display_name"
        }
    }

    private func login(_ request: Request) async throws -> Response {
        state.stats.recordLogin()
        let body = try await Self.credentials(from: request)
        var errors: [APIError.FieldError] = []
        for field in ["username", "password"] where body[field]?.stringValue?.isEmpty ?? true {
            errors.append(.init(field: field, message: "is required"))
        }
        guard errors.isEmpty, let username = body["username"]?.stringValue, let password = body["password"]?.stringValue else {
            throw APIError.validation("The credentials are incomplete.", errors)
        }
        let lifetime = try accessLifetime(request)
        let session = state.auth.withLock {
            $0.login(username: username, password: password, accessLifetime: lifetime, refreshLifetime: state.refreshTokenLifetime)
        }
        guard let session else {
            throw APIError(status: .unauthorized, code: "invalid_credentials", message: "Wrong username or password.")
        }
        return try JSONBody.response(tokenPair(session, lifetime: lifetime))
    }

    private func refresh(_ request: Request) async throws -> Response {
        state.stats.recordRefresh()
        let delay = try request.queryInt("delay_ms", in: 0...10_000) ?? 0
        let body = try await JSONBody.object(from: request)
        guard let token = body["refresh_token"]?.stringValue, !token.isEmpty else {
            throw APIError.validation("The refresh token is missing.", [.init(field: "refresh_token", message: "is required")])
        }
        let lifetime = try accessLifetime(request)
        // Rotate on arrival, before the delay: of two overlapping refreshes with one token only the first
        // wins, exactly as a real rotating server behaves.
        let session = state.auth.withLock {
            $0.refresh(token: token, accessLifetime: lifetime, refreshLifetime: state.refreshTokenLifetime)
        }
        if delay > 0 {
            try await Task.sleep(for: .milliseconds(delay))
        }
        // Held until `wait_count` requests of `wait_route` ("GET /me") have arrived, a minute at
        // most: a refresh that certainly overlaps them, however slow the machine.
        if let route = request.query("wait_route"), let count = try request.queryInt("wait_count", in: 1...10_000) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await state.stats.waitForRequests(route, count: count) }
                group.addTask { try await Task.sleep(for: .seconds(60)) }
                try await group.next()
                group.cancelAll()
            }
        }
        guard let session else {
            throw APIError(status: .unauthorized, code: "invalid_grant", message: "The refresh token is invalid, expired or already used.")
        }
        return try JSONBody.response(tokenPair(session, lifetime: lifetime))
    }

    /// The user of the request's Basic credentials (RFC 7617); a `401` with a `Basic` challenge otherwise.
    private func basic(_ request: Request) throws -> Response {
        let authorization = request.headers[.authorization] ?? ""
        guard authorization.count > 6, authorization.prefix(6).lowercased() == "basic ",
            let decoded = Data(base64Encoded: authorization.dropFirst(6).trimmingSpaces),
            let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":"),
            let user = AuthStore.user(named: String(pair[..<colon])), user.password == pair[pair.index(after: colon)...]
        else {
            var error = APIError(status: .unauthorized, code: "unauthorized", message: "Basic credentials are required.")
            error.headers[.wwwAuthenticate] = "Basic realm=\"\(Self.realm)\", charset=\"UTF-8\""
            throw error
        }
        return try JSONBody.response(Me(username: user.username, displayName: user.displayName))
    }

    private func me(_ request: Request) throws -> Response {
        let user = try Self.authenticatedUser(request, state: state)
        return try JSONBody.response(Me(username: user.username, displayName: user.displayName))
    }

    /// The user whose valid access token `request` carries as a bearer token; a `401` with a
    /// `WWW-Authenticate` challenge otherwise. Shared by every route that requires sign-in.
    static func authenticatedUser(_ request: Request, state: DemoState) throws -> AuthStore.User {
        guard let authorization = request.headers[.authorization],
            authorization.count > 7, authorization.prefix(7).lowercased() == "bearer "
        else {
            var error = APIError(status: .unauthorized, code: "unauthorized", message: "A bearer token is required.")
            error.headers[.wwwAuthenticate] = "Bearer realm=\"\(Self.realm)\""
            throw error
        }
        let token = authorization.dropFirst(7).trimmingSpaces
        switch state.auth.withLock({ $0.user(forAccessToken: token) }) {
        case .success(let user):
            return user
        case .failure(let refusal):
            let message = refusal == .expired ? "The access token has expired." : "The access token is invalid or has been replaced."
            var error = APIError(status: .unauthorized, code: "invalid_token", message: message)
            error.headers[.wwwAuthenticate] = "Bearer realm=\"\(Self.realm)\", error=\"invalid_token\""
            throw error
        }
    }

    /// The access-token lifetime for this request: `?ttl=SECONDS` (0 = already expired) or the server's.
    private func accessLifetime(_ request: Request) throws -> Duration {
        try request.queryInt("ttl", in: 0...31_536_000).map { .seconds($0) } ?? state.accessTokenLifetime
    }

    private func tokenPair(_ session: AuthStore.Session, lifetime: Duration) -> TokenPair {
        TokenPair(accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: Int(lifetime.components.seconds))
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs, as a `String`.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
#endif
