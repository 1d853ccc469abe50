public import Foundation
public import HTTPTypes
import Logging

/// The cookies a client's servers set, sent back with the requests they belong to: RFC 6265 and
/// the parts of RFC 6265bis browsers ship, the same over every transport.
///
/// Put it in the client's middlewares next to authentication, outside the cache and
/// de-duplication, so that both see the `Cookie` a request carries and keep one user's answers
/// apart from another's:
///
/// ```swift
/// let jar = try CookieJar(contentsOf: supportDirectory.appending(path: "cookies.json"))
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: apiURL,
///     middlewares: [LoggingMiddleware(), jar, HTTPCache(storage: MemoryCacheStorage()), RetryMiddleware()]
/// ))
/// ```
///
/// What it does with a `Set-Cookie`:
/// - parses it by RFC 6265's algorithm (attributes in any order, `Expires` in any of the date formats
///   servers have used, `Max-Age` winning over `Expires`, a lifetime capped at 400 days);
/// - refuses a cookie for a public suffix (`com`, `co.uk`, `github.io`; see ``PublicSuffixList``),
///   for a domain the host is not in, for an IP address other than the host's, a `Secure` one
///   from `http`, `SameSite=None` without `Secure`, a `__Secure-` or `__Host-` name that breaks
///   its rule, and one from `http` that would shadow a secure cookie;
/// - stores it host-only unless it names a `Domain`; an expired one deletes the cookie it names;
/// - keeps at most ``Limits/perDomain`` cookies per domain and ``Limits/total`` in all, evicting the
///   least recently used.
///
/// Every answer's cookies are stored, redirects' included: the client follows redirects below the
/// middlewares, and the jar is consulted for each hop, so a cookie set by a `302` goes with the
/// request it leads to, and a hop to another origin carries that origin's cookies only (the
/// caller's own `Cookie` header is removed there, as every credential is). Cookies are never
/// logged, and `Set-Cookie` never reaches a shared cache entry.
///
/// A jar in a file (``init(contentsOf:keepsSessionCookies:publicSuffixes:limits:now:)``) survives
/// restarts: it is written, owner-only and atomically, whenever a server changes a cookie.
public final class CookieJar: Sendable {
    /// How many cookies a jar keeps.
    public struct Limits: Sendable, Hashable {
        /// The most cookies for one domain (counted by the domain they are for); 180 by default,
        /// as in Chromium (RFC 6265 asks for at least 50).
        public var perDomain: Int
        /// The most cookies in all; 3000 by default, RFC 6265's figure.
        public var total: Int

        /// Creates limits.
        public init(perDomain: Int = 180, total: Int = 3000) {
            self.perDomain = max(0, perDomain)
            self.total = max(0, total)
        }
    }

    private let state: LockedState<State>
    private let publicSuffixes: PublicSuffixList
    private let now: @Sendable () -> Date
    private let file: CookieFile?

    private struct State {
        var store: CookieStore
        /// Counts changes worth writing to the file, so that an older snapshot never replaces a newer one.
        var generation = 0
    }

    /// A jar in memory, empty.
    /// - Parameters:
    ///   - publicSuffixes: The domains no cookie may be set for; the list NetworkingKit carries by default.
    ///   - limits: How many cookies the jar keeps.
    ///   - now: The current time; inject a clock in tests.
    public init(
        publicSuffixes: PublicSuffixList = .builtIn, limits: Limits = Limits(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.state = LockedState(State(store: CookieStore(limits: limits)))
        self.publicSuffixes = publicSuffixes
        self.now = now
        self.file = nil
    }

    /// A jar kept in the file at `fileURL`, with the cookies it holds (a missing file is an empty
    /// jar; one that is not a cookie file, truncated or edited by hand, reads as empty too, and is
    /// replaced at the next change).
    /// - Parameters:
    ///   - fileURL: The file; its folder is made (owner-only) if need be.
    ///   - keepsSessionCookies: Whether cookies without an expiry are written too. A browser forgets
    ///     them when it quits; a command-line tool, whose session is many runs, keeps them
    ///     (`netkit request --cookie-jar` does, as curl does).
    ///   - publicSuffixes: The domains no cookie may be set for.
    ///   - limits: How many cookies the jar keeps.
    ///   - now: The current time; inject a clock in tests.
    /// - Throws: The file system's error when the file exists but cannot be read.
    public init(
        contentsOf fileURL: URL, keepsSessionCookies: Bool = false, publicSuffixes: PublicSuffixList = .builtIn,
        limits: Limits = Limits(), now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let file = CookieFile(url: fileURL, keepsSessionCookies: keepsSessionCookies)
        let current = now()
        // What a file says is checked as an app's own cookie is: an entry edited by hand (a CR in a
        // value, an upper-case domain) is dropped or normalised, never sent as it stands.
        let stored = try file.read().compactMap(Self.normalized).filter { !$0.isExpired(at: current) }
        var store = CookieStore(limits: limits)
        for cookie in stored { store.insert(cookie, now: current, publicSuffixes: publicSuffixes) }
        self.state = LockedState(State(store: store))
        self.publicSuffixes = publicSuffixes
        self.now = now
        self.file = file
    }

    /// The file the jar is kept in, if any.
    public var fileURL: URL? { file?.url }

    /// Every cookie in the jar that has not expired, by domain, then path, then age.
    public var cookies: [Cookie] {
        let current = now()
        return state.withLock { state in
            state.store.cookies.values.filter { !$0.isExpired(at: current) }
        }
        .sorted { ($0.domain, $0.path.utf8.count, $0.created, $0.name) < ($1.domain, $1.path.utf8.count, $1.created, $1.name) }
    }

    /// The cookies a request to `url` would carry, most specific path first; reading them does
    /// not count as using them.
    public func cookies(for url: URL) -> [Cookie] {
        guard let target = CookieTarget(url) else { return [] }
        let current = now()
        return state.withLock { $0.store.peek(for: target, now: current) }
    }

    /// Stores the cookies that `Set-Cookie` fields in `fields` set, as received in answer to a
    /// request for `url`; fields the rules refuse are ignored. The client calls it for every
    /// answer; call it yourself for answers that reach you another way.
    /// - Throws: The file system's error when the jar is in a file that cannot be written (the
    ///   cookies are stored in memory all the same).
    public func setCookies(from fields: HTTPFields, for url: URL) async throws {
        guard let target = CookieTarget(url) else { return }
        try await receive(fields, for: target)
    }

    /// Puts `cookie` in the jar as it is, replacing one of the same name, domain and path; none of
    /// the rules for a server's cookies is applied (it is the app's own), but it must be one a
    /// `Cookie` header can carry.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a name with `=`, `;` or a control
    ///   character, a value with `;` or a control character, or an empty domain or path; the file
    ///   system's error when the jar's file cannot be written.
    public func insert(_ cookie: Cookie) async throws {
        if let problem = Self.problem(with: cookie) {
            throw NetworkError.invalidRequest(reason: "the cookie \(problem)")
        }
        var cookie = cookie
        cookie.domain = CookieMatching.canonicalHost(cookie.domain)
        let current = now()
        let publicSuffixes = publicSuffixes
        let snapshot = state.withLock { state in
            state.store.insert(cookie, now: current, publicSuffixes: publicSuffixes)
            return changed(&state)
        }
        try await save(snapshot)
    }

    /// Removes the cookies for which `shouldRemove` returns true (all of a domain's when a user
    /// signs out, say).
    public func removeAll(where shouldRemove: (Cookie) -> Bool) async throws {
        // The predicate runs outside the lock: it may read the jar, and take its time.
        let doomed = Set(state.withLock { Array($0.store.cookies.values) }.filter(shouldRemove).map(\.identity))
        guard !doomed.isEmpty else { return }
        let snapshot = state.withLock { state in
            state.store.removeAll { doomed.contains($0.identity) } > 0 ? changed(&state) : nil
        }
        try await save(snapshot)
    }

    /// Removes every cookie.
    public func removeAll() async throws {
        try await removeAll { _ in true }
    }

    /// `cookie` with its domain in canonical form, or `nil` when it could not be sent as it is.
    private static func normalized(_ cookie: Cookie) -> Cookie? {
        guard problem(with: cookie) == nil else { return nil }
        var cookie = cookie
        cookie.domain = CookieMatching.canonicalHost(cookie.domain)
        return cookie
    }

    /// Why `cookie` could not go in a `Cookie` header as it is, if it could not.
    private static func problem(with cookie: Cookie) -> String? {
        if cookie.name.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") || ControlCharacters.isControl($0) }) {
            return "name has =, ; or a control character"
        }
        if cookie.value.utf8.contains(where: { $0 == UInt8(ascii: ";") || ControlCharacters.isControl($0, allowingTab: true) }) {
            return "value has ; or a control character"
        }
        if cookie.name.isEmpty, cookie.value.isEmpty { return "has neither a name nor a value" }
        if cookie.domain.isEmpty || !cookie.path.hasPrefix("/") { return "needs a domain and a path that starts with /" }
        return nil
    }

    // MARK: - The client's side

    /// The `Cookie` header value for a request to `target`, or `nil` when no cookie goes with it.
    func header(for target: CookieTarget) -> String? {
        let current = now()
        let cookies = state.withLock { $0.store.cookies(for: target, now: current) }
        guard !cookies.isEmpty else { return nil }
        return cookies.map(\.pair).joined(separator: "; ")
    }

    /// Stores what the `Set-Cookie` fields of an answer to `target` say; returns the names of the
    /// cookies they set or deleted.
    @discardableResult
    func receive(_ fields: HTTPFields, for target: CookieTarget, logger: Logger? = nil) async throws -> Set<String> {
        let setters = fields[values: .setCookie]
        guard !setters.isEmpty else { return [] }
        var names: Set<String> = []
        let current = now()
        let publicSuffixes = publicSuffixes
        var refusals: [(name: String, CookieStore.Refusal)] = []
        let snapshot = state.withLock { state -> CookieFile.Snapshot? in
            var changedAny = false
            for field in setters {
                guard let setCookie = SetCookie(field) else { continue }
                switch state.store.store(setCookie, from: target, now: current, publicSuffixes: publicSuffixes) {
                case .stored, .deleted(removedExisting: true):
                    changedAny = true
                    names.insert(setCookie.name)
                case .deleted(removedExisting: false): names.insert(setCookie.name)
                case .refused(let refusal): refusals.append((setCookie.name, refusal))
                }
            }
            return changedAny ? changed(&state) : nil
        }
        for (name, refusal) in refusals {
            // The name only: the value is a credential.
            logger?.debug("Cookie refused", metadata: ["cookie": "\(name)", "host": "\(target.host)", "reason": "\(refusal)"])
        }
        try await save(snapshot)
        return names
    }

    /// Records a change, and returns what the file should now hold (nothing for a jar in memory).
    private func changed(_ state: inout State) -> CookieFile.Snapshot? {
        guard file != nil else { return nil }
        state.generation += 1
        return CookieFile.Snapshot(generation: state.generation, cookies: Array(state.store.cookies.values))
    }

    private func save(_ snapshot: CookieFile.Snapshot?) async throws {
        guard let file, let snapshot else { return }
        try await file.write(snapshot)
    }
}
