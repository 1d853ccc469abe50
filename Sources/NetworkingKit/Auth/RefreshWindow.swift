import Foundation

/// The most token refreshes allowed within an interval: what stops a refresh loop.
///
/// A server that answers 401 to every new token (a clock skewed by hours, a revoked client, a
/// bug) would otherwise have the client refresh on every call for ever. Once the window is full,
/// ``TokenRefresher`` refuses to refresh and calls fail with the server's 401 until the oldest
/// refresh leaves the window.
///
/// ```swift
/// let refresher = TokenRefresher(refreshWindow: RefreshWindow(maximumRefreshes: 3, interval: .seconds(60))) { token in
///     try await authAPI.refresh(token)
/// }
/// ```
public struct RefreshWindow: Sendable, Hashable {
    /// How many refreshes may start within ``interval``.
    public var maximumRefreshes: Int
    /// The length of the sliding window.
    public var interval: Duration

    /// Creates a window of at most `maximumRefreshes` within any `interval`.
    public init(maximumRefreshes: Int, interval: Duration) {
        self.maximumRefreshes = maximumRefreshes
        self.interval = interval
    }

    /// At most 5 refreshes in 30 seconds (Alamofire's default): far above what a healthy session
    /// needs, and low enough that a loop stops within a few calls.
    public static let `default` = RefreshWindow(maximumRefreshes: 5, interval: .seconds(30))
}

/// When the recent refreshes started, to decide whether another fits in the window.
struct RefreshHistory: Sendable {
    private var starts: [Date] = []

    /// Records a refresh starting at `now` and returns `true`, or returns `false` when the window
    /// is full.
    ///
    /// A start later than `now` means the wall clock went back; such entries are dropped rather
    /// than kept (they would otherwise block refreshes for as long as the clock jumped).
    mutating func admit(at now: Date, window: RefreshWindow) -> Bool {
        let interval = window.interval.timeInterval
        starts.removeAll { start in
            let age = now.timeIntervalSince(start)
            return age >= interval || age < 0
        }
        guard starts.count < window.maximumRefreshes else { return false }
        starts.append(now)
        return true
    }
}
