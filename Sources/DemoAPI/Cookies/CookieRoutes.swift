#if DemoAPI
import Foundation
import HTTPTypes
import Hummingbird

/// `/cookies/...`: a session kept in a cookie, as web back ends keep one, for testing a client's
/// cookie jar. `POST /cookies/login` (the users of `/auth/login`, as JSON or a form) sets
/// `demo_session` (`HttpOnly`, `SameSite=Lax`, one hour) and `demo_theme`; `GET /cookies/me` needs
/// the session; `POST /cookies/logout` ends it and expires the cookie; `GET /cookies/redirect?to=`
/// sets `demo_hop` on a `302` to `to`; `GET /cookies/set?name=&value=&attributes=` sets any cookie.
/// What a client sends is visible at `/echo`.
@available(macOS 14, iOS 17, tvOS 17, *)
struct CookieRoutes: Sendable {
    let state: DemoState

    static let sessionCookie = "demo_session"

    func register(on router: Router<DemoRequestContext>) {
        router.post("/cookies/login") { request, _ in
            try await login(request)
        }
        router.get("/cookies/me") { request, _ in
            guard let username = session(of: request) else {
                throw APIError(status: .unauthorized, code: "no_session", message: "Sign in first: no valid session cookie.")
            }
            return try JSONBody.response(["username": username])
        }
        router.post("/cookies/logout") { request, _ in
            if let token = Self.cookie(Self.sessionCookie, in: request) {
                _ = state.cookieSessions.withLock { $0.removeValue(forKey: token) }
            }
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=; Path=/; Max-Age=0"))
            return Response(status: .noContent, headers: headers)
        }
        router.get("/cookies/redirect") { request, _ in
            guard let target = request.query("to"), let url = URL(string: target),
                url.scheme == nil || url.scheme == "http" || url.scheme == "https"
            else {
                throw APIError.badRequest("The query parameter 'to' must be an http(s) URL or a path.")
            }
            var headers = HTTPFields()
            headers[.location] = target
            headers.append(HTTPField(name: .setCookie, value: "demo_hop=1; Path=/"))
            return Response(status: .found, headers: headers)
        }
        router.get("/cookies/set") { request, _ in
            guard let name = request.query("name"), !name.isEmpty else {
                throw APIError.badRequest("The query parameter 'name' is required.")
            }
            let attributes = request.query("attributes").map { "; \($0)" } ?? ""
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "\(name)=\(request.query("value") ?? "")\(attributes)"))
            return Response(status: .noContent, headers: headers)
        }
    }

    private func login(_ request: Request) async throws -> Response {
        let body = try await AuthRoutes.credentials(from: request)
        guard let username = body["username"]?.stringValue, let password = body["password"]?.stringValue,
            let user = AuthStore.user(named: username), user.password == password
        else {
            throw APIError(status: .unauthorized, code: "invalid_credentials", message: "Wrong username or password.")
        }
        let token = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        state.cookieSessions.withLock { $0[token] = user.username }
        var headers = HTTPFields()
        headers.append(HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=\(token); Path=/; HttpOnly; SameSite=Lax; Max-Age=3600"))
        headers.append(HTTPField(name: .setCookie, value: "demo_theme=dark; Path=/cookies"))
        return try JSONBody.response(["username": user.username], headers: headers)
    }

    /// The user whose session `request`'s cookie names, if any.
    private func session(of request: Request) -> String? {
        guard let token = Self.cookie(Self.sessionCookie, in: request) else { return nil }
        return state.cookieSessions.withLock { $0[token] }
    }

    /// The value of the cookie `name` in `request`'s `Cookie` header(s).
    static func cookie(_ name: String, in request: Request) -> String? {
        for field in request.headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}
#endif
