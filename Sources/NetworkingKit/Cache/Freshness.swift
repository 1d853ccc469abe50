import Foundation
import HTTPTypes

/// How long a stored response stays fresh and how old it is now (RFC 9111 §4.2), in seconds.
struct Freshness: Sendable, Equatable {
    /// How long the response is fresh for, from its generation at the origin (§4.2.1).
    let lifetime: Double
    /// How old the response is now (§4.2.3's `current_age`).
    let currentAge: Double

    /// Whether the response is still fresh: `freshness_lifetime > current_age` (§4.2).
    var isFresh: Bool { lifetime > currentAge }

    /// How long ago the response went stale; zero or negative while it is fresh.
    var staleness: Double { currentAge - lifetime }

    /// The freshness of `entry` at `now`.
    init(of entry: CachedResponse, now: Date) {
        let fields = entry.response.headerFields
        let dateValue = entry.parsed.date
        self.lifetime = Self.lifetime(
            status: entry.response.status.code, fields: fields, cacheControl: entry.parsed.cacheControl,
            dateValue: dateValue ?? entry.responseTime)
        self.currentAge = Self.currentAge(
            fields: fields, dateValue: dateValue, requestTime: entry.requestTime, responseTime: entry.responseTime,
            now: now)
    }

    /// How old `entry` is at `now` (§4.2.3), without working out its lifetime.
    static func currentAge(of entry: CachedResponse, now: Date) -> Double {
        currentAge(
            fields: entry.response.headerFields, dateValue: entry.parsed.date, requestTime: entry.requestTime,
            responseTime: entry.responseTime, now: now)
    }

    /// The freshness lifetime (§4.2.1): `max-age`, else `Expires` minus `Date`, else a heuristic.
    /// `s-maxage` is for shared caches and is ignored here.
    static func lifetime(status: Int, fields: HTTPFields, cacheControl: CacheControl, dateValue: Date) -> Double {
        switch cacheControl.seconds("max-age") {
        case .valid(let seconds): return Double(seconds)
        // §4.2.1: a max-age that is not an integer should make the response stale.
        case .invalid: return 0
        case nil: break
        }
        let expiresValues = fields[values: .expires]
        if let expires = expiresValues.first {
            // §5.3: an invalid date (notably "0") means "already expired"; §4.2.1: with more than
            // one Expires, use the first.
            guard let expiresDate = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiresDate.timeIntervalSince(dateValue))
        }
        guard Self.allowsHeuristic(status: status, cacheControl: cacheControl),
            let lastModified = fields[.lastModified].flatMap(HTTPDate.parse)
        else { return 0 }
        // §4.2.2: a fraction of the time since Last-Modified; 10% is the customary fraction.
        return max(0, dateValue.timeIntervalSince(lastModified) * 0.1)
    }

    /// Whether a heuristic lifetime may be used (RFC 9111 §4.2.2): for statuses heuristically
    /// cacheable by default (RFC 9110 §15.1), and for any response marked `public` (§5.2.2.9
    /// grants it to private caches too).
    static func allowsHeuristic(status: Int, cacheControl: CacheControl) -> Bool {
        heuristicallyCacheableStatuses.contains(status) || cacheControl.has("public")
    }

    /// The statuses RFC 9110 §15.1 makes heuristically cacheable. 206 is left out: this cache does
    /// not combine partial content.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The current age (§4.2.3):
    ///
    ///     apparent_age = max(0, response_time - date_value)
    ///     response_delay = response_time - request_time
    ///     corrected_age_value = age_value + response_delay
    ///     corrected_initial_age = max(apparent_age, corrected_age_value)
    ///     resident_time = now - response_time
    ///     current_age = corrected_initial_age + resident_time
    ///
    /// Without a valid `Date`, the apparent age is zero (the response is taken as generated when
    /// it arrived).
    static func currentAge(
        fields: HTTPFields, dateValue: Date?, requestTime: Date, responseTime: Date, now: Date
    ) -> Double {
        let apparentAge = dateValue.map { max(0, responseTime.timeIntervalSince($0)) } ?? 0
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAgeValue = Double(ageValue(fields)) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return correctedInitialAge + residentTime
    }

    /// The `Age` header's value (§5.1): a non-negative integer, 2^31 when it overflows (§1.2.2).
    /// §5.1: when it holds a list (`Age: 100, 200`, or several `Age` lines), the first member is
    /// used. An invalid value (a sign, anything not digits) is ignored: the age is zero.
    static func ageValue(_ fields: HTTPFields) -> Int {
        let first = fields[values: .age].first?.split(separator: ",", omittingEmptySubsequences: false).first
        guard let value = first?.trimmingHTTPWhitespace(), !value.isEmpty,
            value.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return 0 }
        return Int(value).map { min($0, 2_147_483_648) } ?? 2_147_483_648
    }
}
