import Foundation
import HTTPTypes

/// A fresh stored part that begins its representation, and what completing it takes (RFC 9111
/// §3.3, §3.4): the rest is asked for with `Range` from the part's end and `If-Range` with its
/// strong validator, and joined only when it continues the part, to the end, with the same
/// validator and coding; parts are never joined without a strong validator they share, or the
/// two halves could come from different versions.
struct PartCompletion {
    /// The positions the stored part holds.
    let held: ContentRange
    let completeLength: Int64
    let validator: String

    /// `nil` unless `entry` is such a part: a `206` from position 0, short of the end, whose
    /// body is its range, fresh at `now`, with a strong validator.
    init?(_ entry: CachedResponse, now: Date) {
        guard entry.response.status == .partialContent,
            let held = entry.response.headerFields[.contentRange].flatMap(ContentRange.init), held.first == 0,
            let complete = held.completeLength, held.last < complete - 1, Int64(entry.body.count) == held.count,
            Freshness(of: entry, now: now).isFresh, let validator = entry.response.strongValidator
        else { return nil }
        self.held = held
        self.completeLength = complete
        self.validator = validator
    }

    /// The fields that ask for the rest.
    var requestFields: [HTTPField] {
        [HTTPField(name: .range, value: "bytes=\(held.last + 1)-"), HTTPField(name: .ifRange, value: validator)]
    }

    /// The positions `response` holds when it is the rest of the part stored with `stored`'s
    /// fields: from the next position to the end of the same length, with the same strong
    /// validator and content coding; `nil` otherwise.
    func rest(in response: HTTPResponse, after stored: HTTPResponse) -> ContentRange? {
        guard response.status == .partialContent,
            let got = response.headerFields[.contentRange].flatMap(ContentRange.init), got.first == held.last + 1,
            got.completeLength == completeLength, got.last == completeLength - 1,
            response.strongValidator == validator,
            response.headerFields[.contentEncoding] == stored.headerFields[.contentEncoding]
        else { return nil }
        return got
    }
}

extension HTTPCache {
    /// Asks for the rest of a stored part and answers with the whole, stored as a `200`. A `200`
    /// instead (the representation changed, or the server sends it whole) is the answer and
    /// replaces the part. Anything else (a part that does not continue this one, another
    /// validator, an error, a redirect) drops the part, and the whole is asked for as if it were
    /// not there.
    func complete(
        _ part: Found, with completion: PartCompletion, exchange: Exchange, next: MiddlewareNext
    ) async throws -> HTTPAnswer {
        var asked = exchange
        for field in completion.requestFields { asked.request.headerFields[field.name] = field.value }
        let requestTime = now()
        let answer = try await next(asked.request, asked.body, asked.context)
        let (response, body) = (answer.response, answer.body)
        let redirected = answer.wasRedirected
        if response.status == .ok, !redirected {
            return try await keep(answer, exchange: exchange, requestTime: requestTime, responseTime: now(), replacing: part)
        }
        let limit = exchange.context.plan.responseBodyLimit ?? .max
        guard !redirected, completion.completeLength <= Int64(limit),
            let got = completion.rest(in: response, after: part.entry.response)
        else {
            await HTTPBody.discard(body)
            await storage.remove(part.key, varyValues: part.entry.varyValues)
            return try await load(exchange, next: next, replacing: nil)
        }
        let restData = try await body?.collect(upTo: limit) ?? Data()
        guard Int64(restData.count) == got.count else {
            throw NetworkError.transport(TransportFailure(kind: .truncatedBody, request: RequestSummary(asked.request)))
        }
        // The new response's fields describe the whole (§3.4: they replace the stored ones).
        var whole = response
        whole.status = .ok
        whole.headerFields[.contentRange] = nil
        whole.headerFields[.contentLength] = String(completion.completeLength)
        var completed = HTTPAnswer(whole, body: HTTPBody(part.entry.body + restData))
        completed.timingBox = answer.timingBox
        return try await keep(completed, exchange: exchange, requestTime: requestTime, responseTime: now(), replacing: part)
    }
}
