#if DemoAPI
import Foundation
import Hummingbird

/// DemoAPI's routes as a newcomer reads them: each path the router serves, its methods (read off
/// the router, so the list cannot drift from what is served) and one line on what it answers and
/// the query parameters it takes. `GET /` answers it, and `netkit serve` prints it.
///
/// A route registered without a line here, or a line for a route that is not registered, fails
/// `RouteIndexTests`.
@available(macOS 14, iOS 17, tvOS 17, *)
enum RouteIndex {
    /// What each route path answers, by the router's spelling of the path.
    static let summaries: [String: String] = [
        "/": "this index",
        "/stats": "requests counted per route, attempts per fault key, Last-Event-IDs seen (DELETE resets them)",
        // Films (snake_case JSON) and search.
        "/films": "the Pixar films, with ETag and Last-Modified (?max_age=S sets Cache-Control: max-age)",
        "/films/{id}": "one film by id (toy-story, up...), 404 for an unknown one",
        "/films/{id}/characters": "a film's characters",
        "/films/{id}/trailer": "a film's trailer: 4 MiB with ETag, Last-Modified and ranges (the options of /files/{n})",
        "/films/{id}/rating": "rates a film: {\"rating\": 1-5, \"comment\": ...}",
        "/search": "films and characters whose name holds ?q=",
        // Todos (camelCase JSON), pages.
        "/todos": "the todos (?userId= &completed=true|false, ?page=P&limit=L with a Link header); POST adds one",
        "/todos/{id}": "one todo",
        "/todos/export": "every todo, as JSON lines",
        "/pages/todos": "the todos by page number in the body (?page=P&limit=L)",
        "/cursor/todos": "the todos by opaque cursor (?cursor=C&limit=L)",
        // Authentication.
        "/auth/login": "a token pair for {\"username\": ..., \"password\": ...} (?ttl=S sets the access token's life)",
        "/auth/refresh":
            "a new pair for {\"refresh_token\": ...}; the old refresh token is spent (?ttl=S &delay_ms=, or held until ?wait_count= requests of ?wait_route= have arrived)",
        "/auth/expire": "expires the access token of ?username= now, so its next call must refresh",
        "/me": "the user of the bearer token, 401 without a valid one",
        "/html": "a 200 HTML page, as a proxy or captive portal answers in place of an API",
        "/auth/basic": "the user of Basic credentials (woody:andy), 401 with a Basic challenge without valid ones",
        "/cookies/login": "POST {\"username\": ..., \"password\": ...}: sets demo_session (HttpOnly, SameSite=Lax, 1 h)",
        "/cookies/me": "the user of the demo_session cookie, 401 without a valid one",
        "/cookies/logout": "POST: ends the session and expires its cookie (Max-Age=0)",
        "/cookies/redirect": "a 302 to ?to= (a path or an http(s) URL) that sets demo_hop=1",
        "/cookies/set": "sets the cookie ?name=&value= with ?attributes= (\"Path=/; Secure\"), for testing a jar's rules",
        // Streams.
        "/events": "Server-Sent Events 1...?count=N after Last-Event-ID (&drop_after=K &retry=MS &heartbeat=MS &auth=required)",
        "/ndjson": "JSON lines (?count=N)",
        "/feed": "the same stream as /events",
        // Transfers.
        "/files/{n}": "a file of n bytes with ETag, Last-Modified and ranges (?seed= &key= &cut_at=K &ranges=ignore &validators=none)",
        "/files/versions/{key}": "a new version of the files asked for with ?key={key}: new bytes, new ETag",
        "/upload": "any body: its size and FNV-1a 64 checksum",
        "/upload/multipart":
            "a multipart/form-data body read as it streams: each part's name, file name, type, size, SHA-256 (?fail_times=N&key=K)",
        "/bytes/{n}": "n deterministic bytes with Content-Length (?seed=)",
        "/stream/{n}": "n deterministic bytes, chunked (?seed=)",
        // What the server saw.
        "/echo": "the request as the server read it: method, path, query, headers, body",
        "/echo/**": "the same, for any path below /echo",
        // Compression.
        "/encoding/films": "?count=N films as JSON, compressed (?encoding=gzip|deflate)",
        "/encoding/bomb": "a gzip body that inflates to ?inflated=N zero bytes",
        // Statuses, redirects and faults.
        "/status/{code}": "an answer with that status",
        "/redirect/{code}": "a redirect with that status to ?to= (default /echo; &body_bytes=N)",
        "/redirect/chain/{n}": "n redirects in a row, then /echo",
        "/redirect/loop/a": "a redirect to /redirect/loop/b, and back: a loop",
        "/redirect/loop/b": "a redirect to /redirect/loop/a",
        "/faults/status/{code}": "that status for the first ?times=N requests of ?key=, then 200 (&retry_after=)",
        "/faults/delay/{ms}": "answers after ms milliseconds",
        "/faults/trickle/{n}": "n bytes sent a little at a time, ?interval_ms= apart",
        "/faults/close": "closes the connection without an answer",
        "/faults/truncated": "declares ?declared= bytes (100), sends ?sent= (10), then closes",
        "/faults/stall": "the first of every ?every= (100) requests of ?key= stalls ?ms= (1000), the others answer at once",
        // Cache scripts.
        "/cache/{key}": "an answer scripted by its query (?status= &h=Name:value &body= &h304= &drop_after= &self_location=1)",
        // WebSocket: each path upgrades (a plain GET answers 426 Upgrade Required).
        "/ws/echo": "WebSocket: each message sent back as it came",
        "/ws/auth": "WebSocket: echo for a valid bearer token; a 401 with a challenge otherwise",
        "/ws/redirect": "WebSocket: a 302 to /ws/echo instead of the upgrade",
        "/ws/close": "WebSocket: closes at once with ?code= (1000-4999) and ?reason=",
        "/ws/big": "WebSocket: one binary message of ?size= bytes (in frames of ?frame= bytes), then echo",
        "/ws/fragments": "WebSocket: one text message split over three frames, then echo",
        "/ws/drop": "WebSocket: the TCP connection dropped, with no close frame, after the first message",
        "/ws/protocol": "WebSocket: the first subprotocol offered chosen, then echo",
        "/ws/room": "WebSocket: a chat room, each text message to every member",
        "/ws/stats": "WebSocket upgrades accepted per /ws route, and the connections open now",
    ]

    /// One line per route path, sorted: `GET, POST /todos  the todos ...`.
    static func lines<Context>(of router: Router<Context>) -> [String] {
        var methods: [String: Set<String>] = [:]
        for route in router.routes {
            methods["\(route.path)", default: []].insert(route.method.rawValue)
        }
        let routes = methods.keys.sorted().map { path in
            let names = methods[path] ?? []
            // `router.any` registers every method: say so rather than list them.
            let shown = names.count >= 7 ? "any method" : names.sorted(by: Self.methodOrder).joined(separator: ", ")
            return (route: "\(shown) \(path)", summary: summaries[path] ?? "")
        }
        let width = routes.map(\.route.count).max() ?? 0
        return routes.map { $0.route.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
    }

    /// The index as `GET /` answers it.
    static func text<Context>(of router: Router<Context>) -> String {
        "DemoAPI: the routes of NetworkingKit's demo server.\n\n" + lines(of: router).joined(separator: "\n") + "\n"
    }

    /// GET before HEAD before the methods that change something, as a reader expects them.
    private static func methodOrder(_ first: String, _ second: String) -> Bool {
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        return (order.firstIndex(of: first) ?? order.count, first) < (order.firstIndex(of: second) ?? order.count, second)
    }
}
#endif
