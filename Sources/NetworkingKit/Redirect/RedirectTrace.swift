import Foundation
import HTTPTypes

/// Where the redirect step took the last request sent with a ``RequestContext``: shared by every
/// copy of the context, so that a middleware above the step (a cache, a logger) can tell that an
/// answer came from another URL than the one it asked for.
final class RedirectTrace: Sendable {
    /// A request that was not redirected is kept as its summary, and its URL made only when
    /// asked for: every call records here, few ask.
    private enum Visits {
        case none
        case direct(RequestSummary)
        case redirected([URL])
    }

    private let visits = LockedState(Visits.none)

    /// Creates an empty trace.
    init() {}

    /// The URLs the last request visited when it was redirected, the first included; `nil` when
    /// it was answered where it was sent (no URL is made for that).
    var redirects: [URL]? {
        visits.withLock { visits in
            if case .redirected(let urls) = visits, urls.count > 1 { return urls }
            return nil
        }
    }

    /// Whether the last answer came from another URL than the one asked for.
    var wasRedirected: Bool {
        visits.withLock { visits in
            if case .redirected(let urls) = visits { return urls.count > 1 }
            return false
        }
    }

    /// Records a request answered where it was sent.
    func record(_ request: HTTPRequest) {
        let summary = RequestSummary(request)
        visits.withLock { $0 = .direct(summary) }
    }

    /// Records the URLs a redirected request visited, the first included.
    func record(_ visited: [URL]) {
        visits.withLock { $0 = .redirected(visited) }
    }
}
