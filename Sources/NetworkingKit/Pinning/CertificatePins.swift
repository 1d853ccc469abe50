public import Foundation
public import HTTPTypes

/// The keys (or certificates) each pinned host must present, checked on every TLS handshake with
/// it the transport sees, the same way by every transport: RFC 7469's pins, OkHttp's
/// `CertificatePinner`, Alamofire's public-key evaluators. (URLSession may resume a TLS session
/// it checked before without asking again.)
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
/// A host is matched exactly, or by a pattern `*.example.com` that stands for one label (a host
/// both name accepts the pins of both); hosts no pattern names are not pinned. Names are ASCII
/// (punycode for others); IP addresses match whatever their spelling.
///
/// The certificate checked is the server's own, the leaf: unlike OkHttp, which accepts a pin of
/// any certificate in the verified chain, a pin of an intermediate or a root never matches here
/// (SwiftNIO SSL hands over the leaf alone unless its verification is replaced). Pin the
/// server's key and a backup key.
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
            let isWildcard = host.hasPrefix("*.")
            guard let name = Self.canonicalHost(isWildcard ? String(host.dropFirst(2)) : host),
                !isWildcard || !name.contains(":")
            else {
                throw NetworkError.invalidRequest(
                    reason: "\(host) is not a host name (in ASCII: punycode for others), an IP address or a *. pattern")
            }
            decoded[isWildcard ? "*." + name : name, default: []].formUnion(values)
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
    ///
    /// A host named exactly and by a `*.` pattern accepts the pins of both, as OkHttp's do.
    public func accepted(for host: String, at now: Date = Date()) -> Set<CertificatePin>? {
        guard !pins.isEmpty else { return nil }
        if let expiry, now >= expiry { return nil }
        guard let host = Self.canonicalHost(host) else { return nil }
        let exact = pins[host]
        guard let dot = host.firstIndex(of: "."), let wildcard = pins["*" + host[dot...]] else { return exact }
        return exact.map { $0.union(wildcard) } ?? wildcard
    }

    /// `host` as pins are keyed: lowercased, without the brackets of an IPv6 literal or a final
    /// dot (`example.com.` is `example.com`, as the certificate check has it), an IPv6 address in
    /// its one canonical form (RFC 5952: `[0:0::1]` is `::1`); `nil` for what is not a host name
    /// in ASCII or an address (a port, a scheme, a space, Unicode rather than punycode).
    static func canonicalHost(_ host: String) -> String? {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.contains(":") { return URLAuthority.canonicalIPv6(host) }
        if host.hasSuffix(".") { host.removeLast() }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, labels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isNameByte) }) else { return nil }
        return host
    }

    /// A lowercase letter, a digit, `-` or `_`: what a host name's label holds in ASCII.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
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
        guard !pins.isEmpty, let authority = request.authority else { return }
        // The host even of an authority a transport would refuse: never let a call through unread.
        let host = String(URLAuthority.split(authority[...]).host)
        guard accepted(for: host, at: now) != nil else { return }
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
