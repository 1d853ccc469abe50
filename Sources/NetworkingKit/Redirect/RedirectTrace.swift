public import Foundation

/// Where the redirect step took the last request sent with a ``RequestContext``: shared by every
/// copy of the context, so that a middleware above the step (a cache, a logger) can tell that an
/// answer came from another URL than the one it asked for.
public final class RedirectTrace: Sendable {
    private let urls = LockedState<[URL]>([])

    /// Creates an empty trace.
    public init() {}

    /// The URLs the last request visited, the first included; one URL when it was not redirected.
    public var visitedURLs: [URL] {
        urls.withLock { $0 }
    }

    /// Whether the last answer came from another URL than the one asked for.
    public var wasRedirected: Bool {
        urls.withLock { $0.count > 1 }
    }

    func record(_ visited: [URL]) {
        urls.withLock { $0 = visited }
    }
}
