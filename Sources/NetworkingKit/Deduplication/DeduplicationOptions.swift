/// Per-endpoint de-duplication setting, carried in ``RequestOptions``.
extension RequestOptions {
    private enum AllowsDeduplicationKey: RequestOptionKey {
        static let defaultValue = true
    }

    /// Whether ``RequestDeduplicator`` may let this request share a call with identical requests
    /// in flight; `true` by default.
    ///
    /// Turn it off for an endpoint whose every call must reach the server (a GET with a side
    /// effect, a long poll) or whose answer must not be held in memory (a large download, which
    /// sharing would buffer up to ``maxResponseBodySize``).
    ///
    /// ```swift
    /// var options = RequestOptions()
    /// options.allowsDeduplication = false
    /// ```
    public var allowsDeduplication: Bool {
        get { self[AllowsDeduplicationKey.self] }
        set { self[AllowsDeduplicationKey.self] = newValue }
    }
}
