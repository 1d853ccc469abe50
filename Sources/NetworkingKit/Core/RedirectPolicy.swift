public import HTTPTypes

/// How a client follows HTTP redirects: the same rules over every transport, since transports
/// return a 3xx answer as it is and the client's redirect step decides what to do with it.
///
/// The default follows at most 5 redirects and:
/// - stops with ``RedirectFailure/Reason/loop`` as soon as a URL comes round again;
/// - on a change of origin (scheme, host or port) removes `Authorization`, `Cookie`,
///   `Proxy-Authorization` and every header in ``sensitiveHeaders``, for that hop and every hop
///   after it, so a credential never reaches a host it was not meant for;
/// - refuses to go from `https` to `http` (``allowsInsecureRedirects``);
/// - turns a POST into a GET without a body on 301 and 302, and any method but HEAD into a GET on
///   303; 307 and 308 keep the method and the body, which must then be replayable.
///
/// ```swift
/// var configuration = LiveAPIClient.Configuration(baseURL: url)
/// configuration.redirectPolicy = RedirectPolicy(maxRedirects: 3, sensitiveHeaders: [HTTPField.Name("X-API-Key")!])
/// ```
///
/// An endpoint can override it with ``RequestOptions/redirectPolicy``.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; 0 returns a 3xx answer to the caller as it is.
    public var maxRedirects: Int
    /// Whether a redirect from `https` to `http` is followed. Off by default: it would send the
    /// request, and whatever it carries, in clear text.
    public var allowsInsecureRedirects: Bool
    /// Headers removed, in addition to ``alwaysSensitiveHeaders``, when a redirect leads to
    /// another origin.
    public var sensitiveHeaders: Set<HTTPField.Name>

    /// The headers that always carry credentials: removed on a change of origin, never sent to
    /// another origin by a page link or the client's defaults, a partition of their own in
    /// ``HTTPCache``, hidden in logs. HTTP's own (`Authorization`, `Cookie`,
    /// `Proxy-Authorization`) and the API-key headers in common use (`X-API-Key`, `Api-Key`,
    /// `X-Auth-Token`, `X-Access-Token`); declare others with ``sensitiveHeaders``.
    public static let alwaysSensitiveHeaders: Set<HTTPField.Name> = [
        .authorization, .cookie, .proxyAuthorization,
        // Valid tokens: the initializer cannot fail.
        HTTPField.Name("X-API-Key")!, HTTPField.Name("Api-Key")!, HTTPField.Name("X-Auth-Token")!,
        HTTPField.Name("X-Access-Token")!,
    ]

    /// Creates a policy.
    /// - Parameters:
    ///   - maxRedirects: The most redirects to follow; 0 follows none.
    ///   - allowsInsecureRedirects: Whether `https` may redirect to `http`.
    ///   - sensitiveHeaders: More headers to drop when the origin changes (API keys, say).
    public init(maxRedirects: Int = 5, allowsInsecureRedirects: Bool = false, sensitiveHeaders: Set<HTTPField.Name> = []) {
        self.maxRedirects = max(0, maxRedirects)
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.sensitiveHeaders = sensitiveHeaders
    }

    /// Follows up to 5 redirects, with the safety rules above.
    public static let `default` = RedirectPolicy()

    /// Follows no redirect: a 3xx answer reaches the caller as ``NetworkError/unexpectedStatus(_:)``.
    public static let disabled = RedirectPolicy(maxRedirects: 0)

    /// Renamed ``disabled``: on an optional, `.none` means "not set", so an endpoint given `.none`
    /// followed the client's redirects.
    @available(*, unavailable, renamed: "disabled")
    public static var none: RedirectPolicy { disabled }

    /// Every header that is removed when the origin changes.
    var headersRemovedAcrossOrigins: Set<HTTPField.Name> {
        // Most policies declare none: the shared set, not a new one per call.
        sensitiveHeaders.isEmpty ? Self.alwaysSensitiveHeaders : sensitiveHeaders.union(Self.alwaysSensitiveHeaders)
    }
}
