import Foundation
import HTTPTypes

/// What ``HTTPCache`` hands back: a stored response as an answer (its current `Age`, its
/// ``CacheStatus``, a `304` or a range of it when the request asks so), a network answer with its
/// status, or the `504` of a request that allows only cached answers.
enum CachedAnswer {
    /// A stored response as an answer, whole: with its current `Age` (RFC 9111 §5.1).
    static func serve(_ entry: CachedResponse, as status: CacheStatus, now: Date) -> HTTPAnswer {
        HTTPAnswer(
            aged(entry.response, age: Freshness.currentAge(of: entry, now: now)), body: HTTPBody(entry.body),
            cacheStatus: status)
    }

    /// A stored response reused as it is, with the `freshness` the decision to reuse it was made
    /// on (its age, and ``CacheStatus/hit`` when fresh, ``CacheStatus/stale`` otherwise): a `304`
    /// when the caller's own conditions (`request`, when it has any) say it has the response
    /// already (RFC 9111 §4.3.2), the `selection` of its bytes as a `206`, or the whole response.
    static func answer(
        _ entry: CachedResponse, freshness: Freshness, conditions request: HTTPRequest?, selection: StoredRanges.Selection
    ) -> HTTPAnswer {
        let (age, status): (Double, CacheStatus) = (freshness.currentAge, freshness.isFresh ? .hit : .stale)
        if let request, CallerConditions.callerHasCurrent(request, entry: entry) {
            return HTTPAnswer(aged(CallerConditions.notModified(entry), age: age), cacheStatus: status)
        }
        guard case .bytes(let positions, let complete) = selection else {
            return HTTPAnswer(aged(entry.response, age: age), body: HTTPBody(entry.body), cacheStatus: status)
        }
        let (response, body) = StoredRanges.cut(entry, to: positions, completeLength: complete)
        return HTTPAnswer(aged(response, age: age), body: HTTPBody(body), cacheStatus: status)
    }

    /// `response` with `Age: age` (whole seconds).
    private static func aged(_ response: HTTPResponse, age: Double) -> HTTPResponse {
        var response = response
        response.headerFields[.age] = String(Int(age.rounded(.down)))
        return response
    }

    /// The answer when a request allows only cached responses and none fits (RFC 9111 §5.2.1.7).
    static func gatewayTimeout() -> HTTPAnswer {
        HTTPAnswer(HTTPResponse(status: .gatewayTimeout))
    }
}
