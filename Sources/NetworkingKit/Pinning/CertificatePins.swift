public import Foundation
public import HTTPTypes

/// The keys (or certificates) each pinned host must present, checked on every connection to it,
/// the same way by every transport: RFC 7469's pins, OkHttp's `CertificatePinner`, Alamofire's
/// public-key evaluators.
///
/// The check comes on top of the system's own: the chain must still lead to a trusted root and
/// name the host. Give each host a backup pin (a key kept offline for the next certificate), so
/// that a rotated certificate does not cut the app off, and an expiry, after which the pins stop
/// applying, so that an app nobody updated still works once every pinned key has been retired:
///
/// ```swift
/// let pins = try CertificatePins(
///     [
///         "api.example.com": [
///             "sha256/DOUGCybjAJb1JgeOzqzSgTn/NJMHrESg1duHTEytHys=",  // the current key
///             "sha256/gmIa3DuU+6114fgXHXPruCY7bAx+2xPvgg2Hf12fjY8=",  // the backup
///         ],
///         "*.cdn.example.com": ["sha256/DOUGCybjAJb1JgeOzqzSgTn/NJMHrESg1duHTEytHys="],
///     ],
///     expiry: Date(timeIntervalSince1970: 1_893_456_000))  // 2030-01-01
/// let transport = URLSessionTransport(pins: pins)
/// ```
///
/// A host is matched exactly, or by a pattern `*.example.com` that stands for one label; hosts
/// no pattern names are not pinned. The certificate checked is the server's own (the leaf, not
/// an intermediate's).
///
/// Where a transport cannot see the server's certificate, a call to a pinned host fails closed,
/// before anything is sent, with a ``CertificatePinningUnavailable``; it is never sent unpinned:
///
/// | transport | pins |
/// |---|---|
/// | ``URLSessionTransport`` on Apple platforms | checked in the server-trust challenge |
/// | `NIOTransport` | checked once the TLS handshake is verified |
/// | ``URLSessionTransport`` on Linux (FoundationNetworking) | refused: it asks no server-trust question |
/// | `AsyncHTTPClientTransport` | refused: AsyncHTTPClient has no verification callback |
///
/// A pinned host is never called over `http` either: nothing would prove who answered.
public struct CertificatePins: Sendable, Hashable {
    /// The accepted pins per host pattern, lowercased.
    public let pins: [String: Set<CertificatePin>]
    /// When the pins stop applying; `nil` for never.
    public let expiry: Date?

    /// Public-key pins by host pattern, each a base64 SHA-256 digest of a SubjectPublicKeyInfo,
    /// with or without the `sha256/` prefix.
    /// - Parameters:
    ///   - pins: The pins of each host or `*.` pattern.
    ///   - expiry: When the pins stop applying; `nil` for never.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a pin that is not a base64 SHA-256
    ///   digest, a host with no pin (it would refuse every certificate), or a pattern with `*`
    ///   anywhere but as its whole first label.
    public init(_ pins: [String: [String]], expiry: Date? = nil) throws {
        try self.init(pins.mapValues { try $0.map(CertificatePin.init) }, expiry: expiry)
    }

    /// Pins of either kind by host pattern.
    /// - Parameters:
    ///   - pins: The pins of each host or `*.` pattern.
    ///   - expiry: When the pins stop applying; `nil` for never.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a host with no pin, or a pattern
    ///   with `*` anywhere but as its whole first label.
    public init(_ pins: [String: [CertificatePin]], expiry: Date? = nil) throws {
        var decoded: [String: Set<CertificatePin>] = [:]
        for (host, values) in pins {
            guard !values.isEmpty else {
                throw NetworkError.invalidRequest(reason: "the host \(host) has no pin; remove it or give it one")
            }
            let pattern = Self.normalized(host)
            let wildcard = pattern.hasPrefix("*.") ? pattern.dropFirst(2) : pattern[...]
            guard !wildcard.isEmpty, !wildcard.contains("*"), !wildcard.hasPrefix("."), !wildcard.contains("..") else {
                throw NetworkError.invalidRequest(reason: "\(host) is not a host or a *. pattern")
            }
            decoded[pattern, default: []].formUnion(values)
        }
        self.init(decoded: decoded, expiry: expiry)
    }

    private init(decoded: [String: Set<CertificatePin>], expiry: Date?) {
        pins = decoded
        self.expiry = expiry
    }

    /// No host pinned.
    public static let none = CertificatePins(decoded: [:], expiry: nil)

    /// Whether no host is pinned.
    public var isEmpty: Bool { pins.isEmpty }

    /// The pins `host` must match at `now`, or `nil` when it is not pinned (or the pins have
    /// expired).
    public func accepted(for host: String, at now: Date = Date()) -> Set<CertificatePin>? {
        guard !pins.isEmpty else { return nil }
        if let expiry, now >= expiry { return nil }
        let host = Self.normalized(host)
        if let exact = pins[host] { return exact }
        guard let dot = host.firstIndex(of: ".") else { return nil }
        return pins["*" + host[dot...]]
    }

    /// `host` lowercased, without the brackets of an IPv6 literal or a final dot (`example.com.`
    /// is `example.com`, as the certificate check has it).
    private static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// Why the certificate a server presented for `host` (DER bytes, `nil` when there was none)
    /// fails the pins, or `nil` when it passes or the host is not pinned.
    @_spi(Transport) public func mismatch(certificate der: [UInt8]?, host: String, at now: Date = Date()) -> CertificatePinMismatch? {
        guard let accepted = accepted(for: host, at: now) else { return nil }
        let key = der.flatMap { CertificatePin.publicKey(ofCertificate: $0) }
        if let key, accepted.contains(key) { return nil }
        if let der, accepted.contains(where: { $0.kind == .certificate }),
            accepted.contains(CertificatePin.certificate(ofCertificate: der))
        {
            return nil
        }
        return CertificatePinMismatch(host: host, presentedPin: key?.description)
    }

    /// Throws when `request` goes to a pinned host and the pins cannot be checked: always over
    /// `http`, and over `https` when `checksCertificates` is false (the transport cannot see the
    /// server's certificate; `transport` names it).
    /// - Throws: ``NetworkError/transport(_:)`` with `secureConnectionFailed` and a
    ///   ``CertificatePinningUnavailable``.
    @_spi(Transport) public func refuseUncheckable(
        _ request: HTTPRequest, checksCertificates: Bool, transport: String, at now: Date = Date()
    ) throws {
        guard !pins.isEmpty, let authority = request.authority,
            let host = URLAuthority.endpoint(inAuthority: authority[...], defaultPort: 0)?.host,
            accepted(for: host, at: now) != nil
        else { return }
        let cleartext = request.scheme?.lowercased() != "https"
        guard cleartext || !checksCertificates else { return }
        let reason =
            cleartext
            ? "the URL is \(request.scheme ?? "not https"), which proves nothing about who answers"
            : "\(transport) offers no way to check a server's certificate"
        throw NetworkError.transport(
            TransportFailure(
                kind: .secureConnectionFailed, underlying: CertificatePinningUnavailable(host: host, reason: reason),
                request: RequestSummary(request)))
    }
}
