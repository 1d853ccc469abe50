/// Where an answer to a GET came from, as ``HTTPCache`` reports it in ``HTTPAnswer/cacheStatus``
/// and callers read it in ``Response/cacheStatus``.
///
/// ```swift
/// let response = try await client.response(PixarAPIEndpoint.films, as: [Film].self)
/// if response.cacheStatus == .hit { print("no request was sent") }
/// ```
///
/// It is not read from the response's headers: a server's or a CDN's `X-Cache: HIT` says nothing
/// about this client's cache, and reaches the caller as sent.
@nonexhaustive
public enum CacheStatus: String, Sendable, Hashable, CaseIterable {
    /// A stored response, fresh enough to use without asking the server.
    case hit = "HIT"
    /// The server's answer: nothing usable was stored, or the stored response was replaced.
    case miss = "MISS"
    /// A stored response the server confirmed with `304 Not Modified`.
    case revalidated = "REVALIDATED"
    /// A stored response used although stale: allowed by `max-stale`, `stale-while-revalidate`,
    /// `stale-if-error`, or a cache policy that prefers cached data.
    case stale = "STALE"
}

extension CacheStatus: CustomStringConvertible {
    /// The status in capitals, as caches name it in logs: `HIT`, `MISS`, `REVALIDATED` or `STALE`.
    public var description: String { rawValue }
}
