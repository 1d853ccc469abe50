import Foundation

/// Where the redirect step took the last request sent with a ``RequestContext``: shared by every
/// copy of the context, so that a middleware above the step (a cache, a logger) can tell that an
/// answer came from another URL than the one it asked for, and the client can say so in
/// ``Response/redirectChain``.
struct RedirectTrace: Sendable {
    /// The URLs the last request visited, when it was redirected; `nil` when it was answered where
    /// it was sent, which every call records and costs nothing.
    private let redirected = LockedState<[URL]?>(nil)

    /// Creates an empty trace.
    init() {}

    /// The URLs the last request visited when it was redirected, the first included; `nil` when
    /// it was answered where it was sent.
    var redirects: [URL]? {
        redirected.withLock { $0 }
    }

    /// Whether the last answer came from another URL than the one asked for.
    var wasRedirected: Bool { redirects != nil }

    /// Records a request answered where it was sent (a retry's, say, after a redirected attempt).
    func recordDirect() {
        redirected.withLock { $0 = nil }
    }

    /// Records the URLs a redirected request visited, the first included.
    func record(_ visited: [URL]) {
        redirected.withLock { $0 = visited.count > 1 ? visited : nil }
    }
}
