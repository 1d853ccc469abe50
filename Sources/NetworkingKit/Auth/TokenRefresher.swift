public import Foundation
public import Metrics

/// Keeps the current token and refreshes it, once, however many calls need it at the same time
/// (seed 002's `TokenRefresher` actor).
///
/// ```swift
/// let refresher = TokenRefresher(store: FileTokenStore(fileURL: tokenFile), onSignOut: { _ in
///     await session.showSignIn()
/// }) { token in
///     try await authAPI.refresh(token)      // exchanges token.refreshToken for a new AuthToken
/// }
/// let client = LiveAPIClient(baseURL: url, middlewares: [AuthenticationMiddleware(tokenProvider: refresher)])
/// ```
///
/// ## Single flight
///
/// The first caller that needs a refresh starts it; everyone who asks while it runs (a request
/// refused with the same token, a request about to be sent) waits for that same refresh and gets
/// the same new token, or the same error. A caller whose task is cancelled stops waiting at once
/// with ``NetworkError/cancelled``; the refresh itself is never cancelled, because the server may
/// already have rotated the tokens and its answer is the only valid token left.
///
/// ## Stale tokens
///
/// A request refused with a token that has already been replaced (it was sent just before a
/// refresh finished) is given the current token without a new refresh: refreshing again would
/// throw away a token that is fine, and with rotation would invalidate the one the other calls
/// just received.
///
/// ## Expiry, loops and failures
///
/// - A token whose expiry is known is refreshed before it is sent once it is within
///   `refreshMargin` of expiring, so the request does not make a round trip just to be refused.
/// - At most ``RefreshWindow/maximumRefreshes`` refreshes start within ``RefreshWindow/interval``;
///   past that, refreshing stops and calls get the server's 401 (see ``RefreshWindow``).
/// - When the server refuses the refresh (a 4xx answer other than 408 and 429, or the refresh
///   closure throws ``AuthenticationError``), the session is over: the token is removed from the
///   store, `onSignOut` is called once, and then every waiting call fails with the refresh's error.
///   Other failures (no connection, a timeout, a 5xx, a 429) fail the waiting calls with their
///   error but keep the token, so that a later call can try again.
///
/// Time comes from `now`, so tests move it by hand instead of sleeping.
public actor TokenRefresher: TokenProvider {
    /// Exchanges a token (its refresh token, usually) for a new one.
    public typealias Refresh = @Sendable (_ token: AuthToken) async throws -> AuthToken
    /// Told that a refresh was refused and the session is over, with the refresh's error.
    public typealias SignOutHandler = @Sendable (_ error: any Error) async -> Void

    /// How many refreshes are allowed within how long.
    public nonisolated let refreshWindow: RefreshWindow
    /// How long before its known expiry a token is refreshed ahead of being sent.
    public nonisolated let refreshMargin: Duration

    private let store: any TokenStore
    /// `networkingkit_token_refreshes_total`: every refresh started.
    private let refreshes: Counter
    private let now: @Sendable () -> Date
    private let performRefresh: Refresh
    private let onSignOut: SignOutHandler

    private enum Cache {
        case unloaded
        case loaded(AuthToken?)
    }

    /// The store is read once; after that the current token lives here and changes are written
    /// through, so that sending a request never waits for a file or the Keychain.
    private var cache = Cache.unloaded {
        didSet { publish() }
    }
    /// When the current token arrived (a sign-in or a refresh in this process), so that its
    /// lifetime is known; `nil` for a token read from the store.
    private var receivedAt: Date? {
        didSet { publish() }
    }
    private var loading: Task<AuthToken?, any Error>?
    private var inFlight: SharedRefresh? {
        didSet { publish() }
    }
    /// The current token and its arrival, copied out of the actor whenever either changes, while
    /// the store has been read and no refresh is under way (`nil` otherwise): `validToken()`
    /// answers from it without entering the actor, which every request would otherwise do, one
    /// thread hop in and one out.
    private nonisolated let published = LockedState<Published?>(nil)

    private struct Published {
        let token: AuthToken?
        let receivedAt: Date?
    }
    private var history = RefreshHistory()
    /// Changes whenever the app signs in or out, so that a refresh started before cannot bring the
    /// old session back when it ends.
    private var session = 0
    /// Writes to the store run one after the other, in the order the token changed, even though
    /// the actor takes other calls while one is under way.
    private var lastWrite: Task<Void, any Error>?

    /// Creates a refresher.
    /// - Parameters:
    ///   - store: Where the token is kept; read on first use, written on every change.
    ///   - refreshWindow: The limit on refreshes that stops refresh loops.
    ///   - refreshMargin: How long before its known expiry a token is refreshed ahead of use.
    ///   - now: The current time; inject a fixed or manual one in tests.
    ///   - onSignOut: Called once when a refresh is refused and the token has been removed, before
    ///     the waiting calls fail, so that by the time a caller sees the error the app has already
    ///     signed the user out.
    ///   - metricsFactory: Where `networkingkit_token_refreshes_total` is counted; `nil` uses
    ///     `MetricsSystem.factory` (a no-op until a backend is bootstrapped).
    ///   - performRefresh: Exchanges the current token for a new one; called with a token that has
    ///     a refresh token, never twice at the same time.
    public init(
        store: any TokenStore = InMemoryTokenStore(),
        refreshWindow: RefreshWindow = .default,
        refreshMargin: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() },
        onSignOut: @escaping SignOutHandler = { _ in },
        metricsFactory: (any MetricsFactory)? = nil,
        performRefresh: @escaping Refresh
    ) {
        self.refreshes = Counter(label: "networkingkit_token_refreshes_total", factory: metricsFactory ?? MetricsSystem.factory)
        self.store = store
        self.refreshWindow = refreshWindow
        self.refreshMargin = refreshMargin
        self.now = now
        self.onSignOut = onSignOut
        self.performRefresh = performRefresh
    }

    // MARK: - The session

    /// The current token as it is, without refreshing it; `nil` when signed out.
    public func token() async throws -> AuthToken? {
        try await current()
    }

    /// Starts a session with `token` (after a sign-in) and stores it.
    public func setToken(_ token: AuthToken) async throws {
        replaceSession(with: token)
        try await persist(token)
    }

    /// Ends the session (a sign-out) and removes the token from the store.
    public func removeToken() async throws {
        replaceSession(with: nil)
        try await persist(nil)
    }

    // MARK: - Tokens for requests

    /// The token to send now: the current one, refreshed first when it is within `refreshMargin`
    /// of its expiry, or the result of a refresh already under way; `nil` when signed out.
    /// - Throws: The refresh's error when a refresh this call waited for failed.
    public nonisolated func validToken() async throws -> AuthToken? {
        // The common case, a token that may be sent as it is, needs no hop onto the actor.
        if let published = published.withLock({ $0 }) {
            guard let token = published.token, token.refreshToken != nil else { return published.token }
            let margin = Self.proactiveMargin(for: token, receivedAt: published.receivedAt, refreshMargin: refreshMargin)
            guard token.expires(within: margin, of: now()) else { return token }
        }
        return try await currentOrRefreshedToken()
    }

    private func currentOrRefreshedToken() async throws -> AuthToken? {
        let token = try await current()
        // A refresh under way is about to replace the token (and, with rotation, invalidate it).
        if let inFlight { return try await outcome(of: inFlight, fallingBackTo: token) }
        guard let token, token.refreshToken != nil,
            token.expires(within: Self.proactiveMargin(for: token, receivedAt: receivedAt, refreshMargin: refreshMargin), of: now())
        else {
            return token
        }
        // A full refresh window leaves the token as it is: it may still be accepted, and if not,
        // the 401 is the call's answer.
        guard let operation = startRefresh(from: token) else { return token }
        return try await outcome(of: operation, fallingBackTo: token)
    }

    /// A refresh's token; when the refresh failed for a passing reason (a lost connection, an
    /// overloaded server) and `fallback` has not expired yet, `fallback`, which the server may
    /// still accept: an early refresh that fails must not fail calls that would have worked.
    private func outcome(of operation: SharedRefresh, fallingBackTo fallback: AuthToken?) async throws -> AuthToken? {
        do {
            return try await Self.outcome(of: operation)
        } catch let failure where !Self.endsSession(failure) {
            guard let fallback, !fallback.expires(within: .zero, of: now()) else { throw failure }
            return fallback
        }
    }

    /// How close to its expiry a token is refreshed ahead: ``refreshMargin``, but at most half of
    /// the token's lifetime when it is known, so that a token living no longer than the margin
    /// is not refreshed on every call.
    private static func proactiveMargin(for token: AuthToken, receivedAt: Date?, refreshMargin: Duration) -> Duration {
        guard let receivedAt, let expiresAt = token.expiresAt else { return refreshMargin }
        let halfLife = max(0, expiresAt.timeIntervalSince(receivedAt) / 2)
        return min(refreshMargin, .milliseconds(Int64(min(halfLife, 1e9) * 1000)))
    }

    /// A token to send a request again with, after the server refused `rejected` with a 401.
    ///
    /// - A refresh under way: its result.
    /// - `rejected` is no longer the current token: the current one, without a refresh.
    /// - Otherwise a new refresh, shared with every caller that asks while it runs.
    ///
    /// Returns `nil` when signed out, when the token cannot be refreshed, or when the refresh
    /// window is full.
    /// - Throws: The refresh's error, the same for every caller that waited for it.
    public func token(replacing rejected: AuthToken) async throws -> AuthToken? {
        let current = try await current()
        if let inFlight { return try await Self.outcome(of: inFlight) }
        guard let current else { return nil }
        if current.accessToken != rejected.accessToken { return current }
        guard current.refreshToken != nil, let operation = startRefresh(from: current) else { return nil }
        return try await Self.outcome(of: operation)
    }

    /// Refreshes the token now, or joins the refresh under way, and returns the new token.
    /// - Throws: ``AuthenticationError/notAuthenticated`` when there is no token that can be
    ///   refreshed, ``AuthenticationError/refreshWindowExceeded(_:)`` when the window is full, or
    ///   the refresh's error.
    public func refresh() async throws -> AuthToken {
        let current = try await current()
        if let inFlight { return try await Self.value(of: inFlight) }
        guard let current, current.refreshToken != nil else { throw AuthenticationError.notAuthenticated }
        guard let operation = startRefresh(from: current) else {
            throw AuthenticationError.refreshWindowExceeded(refreshWindow)
        }
        return try await Self.value(of: operation)
    }

    /// A shared refresh's token, for callers that want one: a session replaced meanwhile is
    /// ``AuthenticationError/notAuthenticated`` when no token replaced it.
    private static func value(of operation: SharedRefresh) async throws -> AuthToken {
        do {
            return try await operation.value()
        } catch is SessionEnded {
            throw AuthenticationError.notAuthenticated
        }
    }

    /// How many callers wait for the refresh under way (0 when none runs), so that a test can let a
    /// refresh finish only once every concurrent caller has joined it, without sleeping.
    package var waitingCallerCount: Int {
        inFlight?.waiterCount ?? 0
    }

    // MARK: - Refreshing

    /// Starts a refresh from `token`, or returns `nil` when the refresh window is full.
    private func startRefresh(from token: AuthToken) -> SharedRefresh? {
        guard history.admit(at: now(), window: refreshWindow) else { return nil }
        refreshes.increment()
        let operation = SharedRefresh()
        inFlight = operation
        let session = self.session
        // Unstructured on purpose: the refresh must outlive the call that happened to start it.
        Task {
            let result: Result<AuthToken, any Error>
            do {
                result = .success(try await RefreshScope.$isRefreshing.withValue(true) { try await performRefresh(token) })
            } catch {
                result = .failure(error)
            }
            await finish(operation, session: session, result: result)
        }
        return operation
    }

    private func finish(_ operation: SharedRefresh, session: Int, result: Result<AuthToken, any Error>) async {
        // `inFlight` is cleared once the new state is in place, so that `published` never shows
        // the old token as current in between.
        guard session == self.session else {
            if inFlight === operation { inFlight = nil }
            // The app signed in or out while the refresh ran: its answer belongs to a session that
            // is over, and the waiting calls go on with the session that replaced it.
            let replacement = cachedToken.map { Result<AuthToken, any Error>.success($0) }
            operation.finish(with: replacement ?? .failure(SessionEnded()))
            return
        }
        switch result {
        case .success(let token):
            cache = .loaded(token)
            receivedAt = now()
            if inFlight === operation { inFlight = nil }
            // Stored before the callers go on, so that a refresh that has returned is also on disk
            // (new callers meanwhile already get the token from memory). The server has already
            // replaced the old tokens, so a failed write must not fail the calls: the new token
            // works from memory, and the next write brings the store up to date.
            try? await persist(token)
            operation.finish(with: result)
        case .failure(let error) where Self.endsSession(error):
            replaceSession(with: nil)
            if inFlight === operation { inFlight = nil }
            // The session is over whether or not the store could be cleared; a stale token left
            // behind is refused at the next launch and ends the same way.
            try? await persist(nil)
            await onSignOut(error)
            operation.finish(with: result)
        case .failure:
            if inFlight === operation { inFlight = nil }
            operation.finish(with: result)
        }
    }

    /// Whether a refresh error means the refresh token is no good (as opposed to a failure that
    /// may pass, like a lost connection or an overloaded server).
    static func endsSession(_ error: any Error) -> Bool {
        if error is AuthenticationError { return true }
        guard let status = (error as? NetworkError)?.statusCode else { return false }
        return (400..<500).contains(status) && status != 408 && status != 429
    }

    /// A shared refresh's token; `nil` when the session ended (a sign-out) while it ran. Any
    /// other error, an ``AuthenticationError`` thrown by the refresh included, is the refresh's
    /// answer and reaches every caller the same.
    private static func outcome(of operation: SharedRefresh) async throws -> AuthToken? {
        do {
            return try await operation.value()
        } catch is SessionEnded {
            return nil
        }
    }

    /// The session a refresh was for ended while it ran, and none replaced it.
    private struct SessionEnded: Error {}

    // MARK: - Storage

    /// Brings ``published`` up to date; called on every change of what it copies.
    private func publish() {
        let value: Published? =
            if case .loaded(let token) = cache, inFlight == nil { Published(token: token, receivedAt: receivedAt) } else { nil }
        published.withLock { $0 = value }
    }

    private var cachedToken: AuthToken? {
        if case .loaded(let token) = cache { return token }
        return nil
    }

    private func replaceSession(with token: AuthToken?) {
        cache = .loaded(token)
        receivedAt = token == nil ? nil : now()
        session += 1
    }

    /// The current token, read from the store the first time (once, however many callers ask).
    private func current() async throws -> AuthToken? {
        if case .loaded(let token) = cache { return token }
        let load: Task<AuthToken?, any Error>
        if let loading {
            load = loading
        } else {
            load = Task { [store] in try await store.token() }
            loading = load
        }
        let stored: AuthToken?
        do {
            stored = try await load.value
        } catch {
            if loading == load { loading = nil }
            throw error
        }
        if loading == load { loading = nil }
        // A sign-in may have run while the store was read; the token it set is newer.
        if case .loaded(let token) = cache { return token }
        cache = .loaded(stored)
        return stored
    }

    private func persist(_ token: AuthToken?) async throws {
        let previous = lastWrite
        let write = Task { [store] in
            _ = await previous?.result
            if let token {
                try await store.setToken(token)
            } else {
                try await store.removeToken()
            }
        }
        lastWrite = write
        try await write.value
    }
}

/// Marks the task that runs a refresh, so that ``AuthenticationMiddleware`` lets the refresh's own
/// requests through untouched even when they were not opted out: one that waited for a refresh
/// would wait for itself for ever.
enum RefreshScope {
    @TaskLocal static var isRefreshing = false
}
