/// Whether a stored response may answer a request without asking the server (RFC 9111 §4.2.4,
/// §5.2.1, §5.2.2; RFC 5861 for `stale-while-revalidate`).
enum Reuse: Equatable {
    /// Fresh, and fresh enough for the request: use it.
    case fresh
    /// Stale, but within the request's `max-stale`: use it.
    case stale
    /// Stale, but within the response's `stale-while-revalidate`: use it and revalidate behind.
    case staleWhileRevalidate
    /// Revalidate before use.
    case validate

    /// The decision for a stored response with directives `entry` and `freshness`, asked for by a
    /// request with directives `request`.
    init(entry: CacheControl, freshness: Freshness, request: CacheControl) {
        // §5.2.2.4 / §5.2.1.4: no-cache from either side means "validate first". A qualified
        // response no-cache (`no-cache="Set-Cookie"`) is treated as unqualified, the safe reading.
        if entry.noCache || request.noCache {
            self = .validate
            return
        }
        // §5.2.1.1: a request max-age (an invalid one counts as 0) caps the acceptable age;
        // except for a fresh `immutable` response, which a reload does not revalidate (RFC 8246
        // §2: only an explicit `no-cache`, a forced reload, does).
        if let maxAge = request.seconds("max-age"), !(entry.has("immutable") && freshness.isFresh) {
            let limit: Double = if case .valid(let seconds) = maxAge { Double(seconds) } else { 0 }
            if freshness.currentAge > limit {
                self = .validate
                return
            }
        }
        // §5.2.1.3: min-fresh asks for a response that stays fresh at least that much longer.
        if let minFresh = request.validSeconds("min-fresh"), freshness.lifetime - freshness.currentAge < Double(minFresh) {
            self = .validate
            return
        }
        if freshness.isFresh {
            self = .fresh
            return
        }
        // §5.2.2.2: once stale, a must-revalidate response is never used unvalidated, max-stale
        // and stale-while-revalidate notwithstanding.
        if entry.mustRevalidate {
            self = .validate
            return
        }
        if let maxStale = request.maxStale, freshness.staleness <= Double(maxStale) {
            self = .stale
            return
        }
        if let window = entry.validSeconds("stale-while-revalidate"), freshness.staleness <= Double(window) {
            self = .staleWhileRevalidate
            return
        }
        self = .validate
    }
}
