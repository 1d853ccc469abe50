#if DemoAPI
/// Everything one ``DemoServer`` remembers between requests.
///
/// One instance per server, never a global, so servers started side by side in one test process
/// cannot see each other's ratings, todos, tokens or counters.
final class DemoState: Sendable {
    let stats = DemoStats()
    /// Ratings posted per film id.
    let ratings = Locked<[String: [Int]]>([:])
    let todos = Locked(TodoStore.seeded())
    let auth = Locked(AuthStore())
    /// The WebSocket routes' counters (`/ws/stats`).
    let webSockets = Locked(WebSocketRoutes.Counters())
    /// `/ws/room`'s members.
    let room = WebSocketRoom()
    /// The sessions of `/cookies/login`: the session cookie's value to the user's name.
    let cookieSessions = Locked<[String: String]>([:])
    /// The version of each `/files` key, bumped to replace the "file" behind a URL.
    let fileVersions = Locked<[String: Int]>([:])
    let accessTokenLifetime: Duration
    let refreshTokenLifetime: Duration
    private let boundAuthority = Locked("localhost")

    init(accessTokenLifetime: Duration, refreshTokenLifetime: Duration) {
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
    }

    /// `host:port` for absolute URLs when a request has no `Host` header (HTTP/1.0 clients).
    var fallbackAuthority: String {
        boundAuthority.withLock { $0 }
    }

    /// Records the address really bound, once the server is listening.
    func setBoundAuthority(host: String, port: Int) {
        boundAuthority.withLock { $0 = "\(host):\(port)" }
    }
}
#endif
