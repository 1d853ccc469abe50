import HTTPTypes

/// Whether a response may be stored (RFC 9111 §3), for a private cache.
enum Storability {
    /// Whether the answer to `request` may be stored:
    /// - the method is GET (the only one this cache stores);
    /// - the status is final and not `206` (partial content is not combined) or `304`;
    /// - neither the request nor the response says `no-store` (§5.2.1.5, §5.2.2.5);
    /// - the response does not vary on `*` (§4.1: it could never be reused);
    /// - the response has `Expires` or `max-age`, or its status is heuristically cacheable
    ///   (RFC 9110 §15.1).
    ///
    /// `public` or `private` alone does not make a response storable: without explicit freshness
    /// a status not cacheable by default (a `500`, say) would be stored stale at once, and would
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
        guard status >= 200, status != 206, status != 304 else { return false }
        let directives = CacheControl(response.headerFields)
        guard !directives.noStore, !requestDirectives.noStore else { return false }
        guard StoredFields.varyNames(response) != ["*"] else { return false }
        return directives.has("max-age") || response.headerFields[.expires] != nil
            || Freshness.heuristicallyCacheableStatuses.contains(status)
    }
}
