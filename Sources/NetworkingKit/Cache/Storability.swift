import HTTPTypes

/// Whether a response may be stored (RFC 9111 §3), for a private cache.
enum Storability {
    /// Whether the answer to `request` may be stored:
    /// - the method is GET (the only one this cache stores);
    /// - the status is final and not `304` (a `206` is kept only as ``StoredRanges`` says);
    /// - neither the request nor the response says `no-store` (§5.2.1.5, §5.2.2.5), except that
    ///   a response's `must-understand` (§5.2.2.3) overrides its `no-store` for a status this
    ///   cache understands, and forbids storing any other;
    /// - the response does not vary on `*` (§4.1: it could never be reused);
    /// - the response has `Expires` or `max-age`, or its status is heuristically cacheable
    ///   (RFC 9110 §15.1), or it is `public` with a `Last-Modified` to reckon a heuristic
    ///   lifetime from (§4.2.2).
    ///
    /// `public` or `private` alone does not make a response storable: without any freshness, a
    /// status not cacheable by default (a `500`, say) would be stored stale at once, and would
    /// replace a good entry that `stale-if-error` could still have served.
    ///
    /// A private cache may store `private` responses and answers to requests with
    /// `Authorization` (§3.5 binds shared caches only); ``CachePartition`` keeps them per
    /// credential. `s-maxage` is for shared caches and does not make a response storable here.
    static func mayStore(
        _ response: HTTPResponse, request: HTTPRequest, requestDirectives: CacheControl
    ) -> Bool {
        guard request.method == .get else { return false }
        let status = response.status.code
        guard status >= 200, status != 304 else { return false }
        let directives = CacheControl(response.headerFields)
        guard !forbidsStoring(directives, status: status), !requestDirectives.noStore else { return false }
        guard StoredFields.varyNames(response) != ["*"] else { return false }
        return directives.has("max-age") || response.headerFields.contains(.expires)
            || Freshness.heuristicallyCacheableStatuses.contains(status)
            || (directives.has("public") && response.headerFields.contains(.lastModified))
    }

    /// Whether a response's own directives forbid storing it: `no-store`, unless `must-understand`
    /// comes with it and the status is one this cache understands; `must-understand` with any
    /// other status.
    static func forbidsStoring(_ directives: CacheControl, status: Int) -> Bool {
        directives.has("must-understand") ? !understoodStatuses.contains(status) : directives.noStore
    }

    /// The final statuses whose caching rules this cache knows: those RFC 9110 defines (§15).
    static let understoodStatuses: Set<Int> = Set(200...206).union(300...308).subtracting([306])
        .union(400...417).union([421, 422, 426]).union(500...505)
}
