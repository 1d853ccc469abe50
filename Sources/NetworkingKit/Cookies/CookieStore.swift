import Foundation

/// The cookies of a jar as a value: RFC 6265 §5.3 (storing what a `Set-Cookie` says) and §5.4
/// (which cookies a request carries), with the parts of RFC 6265bis browsers ship. Pure: the time
/// and the public suffixes are given, so every rule is tested without a clock or a network.
struct CookieStore {
    private(set) var cookies: [Cookie.Identity: Cookie] = [:]
    /// Each domain's registrable domain, for the limit per site.
    private var sites: [String: String] = [:]
    let limits: CookieJar.Limits

    /// The longest a cookie may last (RFC 6265bis §5.6.1): 400 days, whatever the server says.
    static let longestLifetime: TimeInterval = 400 * 86_400

    init(limits: CookieJar.Limits, cookies: [Cookie] = []) {
        self.limits = limits
        for cookie in cookies { self.cookies[cookie.identity] = cookie }
    }

    /// Why a `Set-Cookie` was not stored, for the jar's debug log.
    enum Refusal: Equatable {
        case publicSuffix(String)
        case domainMismatch(String)
        case secureFromInsecureOrigin
        case sameSiteNoneWithoutSecure
        case prefix(String)
        case overwritesSecureCookie
        case overLimit
    }

    /// What storing one `Set-Cookie` did.
    enum Outcome: Equatable {
        case stored(Cookie)
        /// An expired cookie: it removed the one it names, if there was one.
        case deleted(removedExisting: Bool)
        case refused(Refusal)
    }

    /// Stores what `setCookie` says, received in answer to a request for `target` at `now`.
    mutating func store(
        _ setCookie: SetCookie, from target: CookieTarget, now: Date, publicSuffixes: PublicSuffixList
    ) -> Outcome {
        var expires: Date?
        if let maxAge = setCookie.maxAge {
            // Max-Age wins over Expires, wherever it stands (§5.3 step 3).
            expires = maxAge <= 0 ? .distantPast : now.addingTimeInterval(min(TimeInterval(maxAge), Self.longestLifetime))
        } else if let date = setCookie.expires {
            expires = min(date, now.addingTimeInterval(Self.longestLifetime))
        }

        var domain = setCookie.domain ?? ""
        if !domain.isEmpty, publicSuffixes.isPublicSuffix(domain) {
            // A site may name its own host even when it is a suffix (`localhost`, say): host-only.
            guard domain == target.host else { return .refused(.publicSuffix(domain)) }
            domain = ""
        }
        let isHostOnly: Bool
        if !domain.isEmpty {
            guard CookieMatching.host(target.host, matchesDomain: domain) else { return .refused(.domainMismatch(domain)) }
            // An address covers no other host: `Domain=` naming it is host-only.
            isHostOnly = CookieMatching.isIPAddress(target.host)
        } else {
            isHostOnly = true
            domain = target.host
        }
        let path = setCookie.path ?? CookieMatching.defaultPath(target.path)

        if setCookie.isSecure, !target.isSecure { return .refused(.secureFromInsecureOrigin) }
        let sameSite = setCookie.sameSite ?? .unspecified
        if sameSite == .none, !setCookie.isSecure { return .refused(.sameSiteNoneWithoutSecure) }
        if let prefix = Self.prefixViolation(setCookie) { return .refused(.prefix(prefix)) }

        var cookie = Cookie(
            name: setCookie.name, value: setCookie.value, domain: domain, isHostOnly: isHostOnly, path: path,
            expires: expires, isSecure: setCookie.isSecure, isHTTPOnly: setCookie.isHTTPOnly, sameSite: sameSite,
            created: now)
        // A page over http may not shadow a secure cookie (RFC 6265bis §5.7 step 16).
        if !cookie.isSecure, !target.isSecure, overwritesSecureCookie(cookie) { return .refused(.overwritesSecureCookie) }

        let existing = cookies.removeValue(forKey: cookie.identity)
        if let existing { cookie.created = existing.created }
        if cookie.isExpired(at: now) { return .deleted(removedExisting: existing != nil) }
        cookies[cookie.identity] = cookie
        evict(now: now, keeping: cookie.identity, publicSuffixes: publicSuffixes)
        // A limit of zero keeps nothing, the new cookie included.
        return cookies[cookie.identity] == nil ? .refused(.overLimit) : .stored(cookie)
    }

    /// The cookies a request for `target` carries at `now`, in the order of §5.4 (longer paths
    /// first, then older cookies first), marked as used.
    mutating func cookies(for target: CookieTarget, now: Date) -> [Cookie] {
        var matching: [Cookie] = []
        for (identity, cookie) in cookies {
            if cookie.isExpired(at: now) {
                cookies[identity] = nil
                continue
            }
            guard Self.matches(cookie, target) else { continue }
            var used = cookie
            used.lastAccessed = now
            cookies[identity] = used
            matching.append(used)
        }
        return Self.ordered(matching)
    }

    /// ``cookies(for:now:)`` without marking them as used or removing expired ones.
    func peek(for target: CookieTarget, now: Date) -> [Cookie] {
        Self.ordered(cookies.values.filter { !$0.isExpired(at: now) && Self.matches($0, target) })
    }

    /// Puts `cookie` in the store as it is (an app's own, or one read back from a file).
    mutating func insert(_ cookie: Cookie, now: Date, publicSuffixes: PublicSuffixList) {
        cookies[cookie.identity] = cookie
        evict(now: now, keeping: cookie.identity, publicSuffixes: publicSuffixes)
    }

    /// Removes the cookies for which `shouldRemove` is true; says how many went.
    mutating func removeAll(where shouldRemove: (Cookie) -> Bool) -> Int {
        let before = cookies.count
        cookies = cookies.filter { !shouldRemove($0.value) }
        return before - cookies.count
    }

    /// Removes expired cookies, then the least recently used of a site over its limit, then the
    /// least recently used of all over the total limit (§5.3 step 12); never `keeping`, the cookie
    /// just set, unless a limit is zero. A site is a registrable domain (`example.co.uk` for
    /// `a.b.example.co.uk`), so that one site setting cookies for many subdomains fills its own
    /// share and never pushes out another site's.
    private mutating func evict(now: Date, keeping: Cookie.Identity, publicSuffixes: PublicSuffixList) {
        cookies = cookies.filter { !$0.value.isExpired(at: now) }
        let site = self.site(of: keeping.domain, publicSuffixes)
        let ofSite = cookies.values.filter { $0.domain == keeping.domain || self.site(of: $0.domain, publicSuffixes) == site }
        if ofSite.count > limits.perDomain {
            removeLeastRecentlyUsed(ofSite, count: ofSite.count - limits.perDomain, keeping: keeping)
        }
        if cookies.count > limits.total {
            removeLeastRecentlyUsed(Array(cookies.values), count: cookies.count - limits.total, keeping: keeping)
        }
    }

    /// The registrable domain of `domain`, looked up once per domain.
    private mutating func site(of domain: String, _ publicSuffixes: PublicSuffixList) -> String {
        if let known = sites[domain] { return known }
        let site = publicSuffixes.registrableDomain(domain)
        sites[domain] = site
        return site
    }

    private mutating func removeLeastRecentlyUsed(_ candidates: [Cookie], count: Int, keeping: Cookie.Identity) {
        let ordered = candidates.sorted {
            ($0.identity == keeping ? 1 : 0, $0.lastAccessed) < ($1.identity == keeping ? 1 : 0, $1.lastAccessed)
        }
        for cookie in ordered.prefix(count) { cookies[cookie.identity] = nil }
    }

    private static func matches(_ cookie: Cookie, _ target: CookieTarget) -> Bool {
        let domainMatches =
            cookie.isHostOnly ? cookie.domain == target.host : CookieMatching.host(target.host, matchesDomain: cookie.domain)
        return domainMatches && CookieMatching.path(target.path, matches: cookie.path) && (!cookie.isSecure || target.isSecure)
    }

    private static func ordered(_ cookies: [Cookie]) -> [Cookie] {
        cookies.sorted { lhs, rhs in
            let (left, right) = (lhs.path.utf8.count, rhs.path.utf8.count)
            if left != right { return left > right }
            if lhs.created != rhs.created { return lhs.created < rhs.created }
            // Same path length and creation time: an order that does not depend on the dictionary's.
            return (lhs.name, lhs.domain, lhs.path) < (rhs.name, rhs.domain, rhs.path)
        }
    }

    /// The prefix whose rule `setCookie` breaks (RFC 6265bis §4.1.3), if any: `__Secure-` asks for
    /// `Secure`; `__Host-` also for no `Domain` and the path `/`. Matched without regard to case,
    /// and in the value of a cookie without a name, which a server would read the same way.
    private static func prefixViolation(_ setCookie: SetCookie) -> String? {
        let name = setCookie.name.isEmpty ? setCookie.value : setCookie.name
        let lowercased = name.prefix(9).lowercased()
        if setCookie.name.isEmpty, lowercased.hasPrefix("__secure-") || lowercased.hasPrefix("__host-") {
            return String(name.prefix(lowercased.hasPrefix("__host-") ? 7 : 9))
        }
        if lowercased.hasPrefix("__secure-"), !setCookie.isSecure { return "__Secure-" }
        // `Path=/` written out: a default path of `/` (a cookie set from `/login`) is not enough.
        if lowercased.hasPrefix("__host-"), !setCookie.isSecure || setCookie.domain != nil || setCookie.path != "/" {
            return "__Host-"
        }
        return nil
    }

    private func overwritesSecureCookie(_ cookie: Cookie) -> Bool {
        cookies.values.contains { existing in
            existing.isSecure && existing.name == cookie.name
                && (CookieMatching.host(existing.domain, matchesDomain: cookie.domain)
                    || CookieMatching.host(cookie.domain, matchesDomain: existing.domain))
                && CookieMatching.path(cookie.path, matches: existing.path)
        }
    }
}
