extension HTTPBody {
    /// The most bytes read from a body that is thrown away, so that its connection can be reused;
    /// a longer body is abandoned instead, which closes the connection.
    static let discardDrainLimit = 16 * 1024

    /// Reads a little of a body nobody wants (a redirect's, a failed attempt's) and drops it.
    static func discard(_ body: HTTPBody?) async {
        guard let body, body.bufferedData == nil else { return }
        _ = try? await body.prefix(upTo: discardDrainLimit)
    }
}
