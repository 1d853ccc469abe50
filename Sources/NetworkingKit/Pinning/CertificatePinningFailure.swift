/// A server's certificate carried none of the keys pinned for its host: the connection was
/// closed before any byte of the request was sent. The underlying error of a
/// `secureConnectionFailed` ``TransportFailure``.
public struct CertificatePinMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host the connection was for.
    public let host: String
    /// The public-key pin of the certificate the server presented (`sha256/...`), or `nil` when
    /// it presented none that could be read.
    public let presentedPin: String?

    public var description: String {
        "the certificate of \(host) carries none of the keys pinned for it (it presented \(presentedPin ?? "no readable key"))"
    }
}

/// A call to a pinned host was refused because its pins could not be checked: the transport
/// offers no way to see the server's certificate, or the URL is `http`. Nothing was sent. The
/// underlying error of a `secureConnectionFailed` ``TransportFailure``.
public struct CertificatePinningUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pinned host.
    public let host: String
    /// Why the pins could not be checked.
    public let reason: String

    public var description: String { "\(host) is pinned, but its pins cannot be checked: \(reason)" }
}
