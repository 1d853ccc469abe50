public import HTTPTypes

/// Where an answer to a GET came from, as ``HTTPCache`` reports it in the `X-Cache` response
/// header.
///
/// ```swift
/// let response = try await client.response(PixarAPIEndpoint.films, as: [Film].self)
/// if response.cacheStatus == .hit { print("no request was sent") }
/// ```
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
    /// The name `X-Cache` carries: `HIT`, `MISS`, `REVALIDATED` or `STALE`.
    public var description: String { rawValue }
}

extension HTTPField.Name {
    /// `X-Cache`, the header in which ``HTTPCache`` says where an answer came from.
    // A literal, valid field name: the initializer cannot fail.
    public static let xCache = HTTPField.Name("X-Cache")!
}

extension HTTPResponse {
    /// Where this answer came from, read from its `X-Cache` header; `nil` when no ``HTTPCache``
    /// handled it (or the header holds another value).
    public var cacheStatus: CacheStatus? {
        headerFields[.xCache].flatMap(CacheStatus.init(rawValue:))
    }
}

extension Response {
    /// Where this answer came from, read from its `X-Cache` header; `nil` when no ``HTTPCache``
    /// handled it.
    public var cacheStatus: CacheStatus? {
        response.cacheStatus
    }
}
