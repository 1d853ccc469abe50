import Foundation
import HTTPTypes

/// What ``HTTPCache`` hands back: a stored response as an answer (its current `Age`, its
/// `X-Cache`, a `304` or a range of it when the request asks so), a network answer marked, or the
/// `504` of a request that allows only cached answers.
enum CachedAnswer {
    /// A stored response as an answer, whole: with its current `Age` (RFC 9111 §5.1) and
    /// `X-Cache: status`.
    static func serve(_ entry: CachedResponse, as status: CacheStatus, now: Date) -> (HTTPResponse, HTTPBody?) {
        (stamped(entry.response, age: Freshness.currentAge(of: entry, now: now), as: status), HTTPBody(entry.body))
    }

    /// A stored response reused as it is, with the `freshness` the decision to reuse it was made
    /// on (its age, and `X-Cache` `HIT` when fresh, `STALE` otherwise): a `304` when the caller's
    /// own conditions (`request`, when it has any) say it has the response already (RFC 9111
    /// §4.3.2), the `selection` of its bytes as a `206`, or the whole response.
    static func answer(
        _ entry: CachedResponse, freshness: Freshness, conditions request: HTTPRequest?, selection: StoredRanges.Selection
    ) -> (HTTPResponse, HTTPBody?) {
        let (age, status): (Double, CacheStatus) = (freshness.currentAge, freshness.isFresh ? .hit : .stale)
        if let request, CallerConditions.callerHasCurrent(request, entry: entry) {
            return (stamped(CallerConditions.notModified(entry), age: age, as: status), nil)
        }
        guard case .bytes(let positions, let complete) = selection else {
            return (stamped(entry.response, age: age, as: status), HTTPBody(entry.body))
        }
        let (response, body) = StoredRanges.cut(entry, to: positions, completeLength: complete)
        return (stamped(response, age: age, as: status), HTTPBody(body))
    }

    /// `response` with `Age: age` (whole seconds) and `X-Cache: status`.
    private static func stamped(_ response: HTTPResponse, age: Double, as status: CacheStatus) -> HTTPResponse {
        var response = response
        response.headerFields[.age] = String(Int(age.rounded(.down)))
        mark(&response, status)
        return response
    }

    /// `response` marked with `X-Cache: status`.
    static func marked(_ response: HTTPResponse, _ status: CacheStatus) -> HTTPResponse {
        var response = response
        mark(&response, status)
        return response
    }

    /// Sets `X-Cache: status`, nearly always on a response without one: then the field made once
    /// for the status is added, without checking its value again.
    private static func mark(_ response: inout HTTPResponse, _ status: CacheStatus) {
        guard !response.headerFields.contains(.xCache) else {
            response.headerFields[.xCache] = status.rawValue
            return
        }
        response.headerFields.append(status.xCacheField)
    }

    /// The answer when a request allows only cached responses and none fits (RFC 9111 §5.2.1.7).
    static func gatewayTimeout() -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .gatewayTimeout), nil)
    }
}

extension CacheStatus {
    /// `X-Cache` with this status.
    fileprivate var xCacheField: HTTPField {
        switch self {
        case .hit: Self.hitField
        case .miss: Self.missField
        case .revalidated: Self.revalidatedField
        case .stale: Self.staleField
        }
    }

    private static let hitField = HTTPField(name: .xCache, value: CacheStatus.hit.rawValue)
    private static let missField = HTTPField(name: .xCache, value: CacheStatus.miss.rawValue)
    private static let revalidatedField = HTTPField(name: .xCache, value: CacheStatus.revalidated.rawValue)
    private static let staleField = HTTPField(name: .xCache, value: CacheStatus.stale.rawValue)
}
