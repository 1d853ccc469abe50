/// How one request uses ``HTTPCache``, set per endpoint with ``RequestOptions/cachePolicy``.
///
/// The names are URLSession's, which the seeds use.
///
/// ```swift
/// var options = RequestOptions()
/// options.cachePolicy = .returnCacheDataElseLoad
/// ```
@nonexhaustive
public enum CachePolicy: Sendable, Hashable {
    /// RFC 9111: fresh stored responses are used, stale ones revalidated, request and response
    /// `Cache-Control` honoured.
    case useProtocolCachePolicy
    /// Always asks the server and ignores what is stored; a storable answer still replaces it.
    case reloadIgnoringCacheData
    /// Uses a stored response however old (no revalidation); asks the server only when nothing
    /// matching is stored.
    case returnCacheDataElseLoad
    /// Uses a stored response however old and never asks the server: with nothing stored, the
    /// answer is a `504 Gateway Timeout` (as for `only-if-cached`).
    case returnCacheDataDontLoad
}

extension CachePolicy: CustomStringConvertible {
    /// The case's name, URLSession's: `useProtocolCachePolicy`, `returnCacheDataElseLoad`…
    public var description: String {
        switch self {
        case .useProtocolCachePolicy: "useProtocolCachePolicy"
        case .reloadIgnoringCacheData: "reloadIgnoringCacheData"
        case .returnCacheDataElseLoad: "returnCacheDataElseLoad"
        case .returnCacheDataDontLoad: "returnCacheDataDontLoad"
        }
    }
}

extension RequestOptions {
    private enum CachePolicyKey: RequestOptionKey {
        static let defaultValue = CachePolicy.useProtocolCachePolicy
    }

    /// How ``HTTPCache`` treats this endpoint's requests; ``CachePolicy/useProtocolCachePolicy``
    /// unless the endpoint says otherwise.
    public var cachePolicy: CachePolicy {
        get { self[CachePolicyKey.self] }
        set { self[CachePolicyKey.self] = newValue }
    }
}
