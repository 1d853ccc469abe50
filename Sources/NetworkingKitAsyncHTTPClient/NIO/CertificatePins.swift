#if AsyncHTTPClientTransport || DemoAPI
import Crypto
public import Foundation
@_spi(Transport) import NetworkingKit
public import NIOSSL

/// Public keys a host's certificate must carry, by the SHA-256 of its SubjectPublicKeyInfo
/// (the pins of RFC 7469, OkHttp's `CertificatePinner` and Alamofire's public-key evaluators).
///
/// The check comes after the system's own: the chain must still lead to a trusted root and name
/// the host. Give each host a backup pin (a key kept offline for the next certificate) so that a
/// rotated certificate does not cut the app off:
///
/// ```swift
/// let pins = try CertificatePins([
///     "api.example.com": [
///         "sha256/DOUGCybjAJb1JgeOzqzSgTn/NJMHrESg1duHTEytHys=",  // the current key
///         "sha256/gmIa3DuU+6114fgXHXPruCY7bAx+2xPvgg2Hf12fjY8=",  // the backup
///     ],
///     "*.cdn.example.com": ["sha256/DOUGCybjAJb1JgeOzqzSgTn/NJMHrESg1duHTEytHys="],
/// ])
/// ```
///
/// A host is matched exactly, or by a pattern `*.example.com` that stands for one label; hosts
/// no pattern names are not pinned. The key checked is the server certificate's own (the leaf's,
/// not an intermediate's: SwiftNIO SSL hands over the verified leaf only, unless its own
/// verification is replaced). ``pin(of:)`` gives a certificate's pin.
public struct CertificatePins: Sendable, Hashable {
    /// The accepted key digests per host pattern, lowercased.
    public let pins: [String: Set<Data>]

    /// Pins by host pattern, each pin a base64 SHA-256 digest of a SubjectPublicKeyInfo, with
    /// or without the `sha256/` prefix.
    /// - Throws: ``/NetworkingKit/NetworkError/invalidRequest(reason:)`` for a pin that is not a base64 SHA-256
    ///   digest, or a host with no pin (it would refuse every certificate).
    public init(_ pins: [String: [String]]) throws {
        var decoded: [String: Set<Data>] = [:]
        for (host, values) in pins {
            guard !values.isEmpty else {
                throw NetworkError.invalidRequest(reason: "the host \(host) has no pin; remove it or give it one")
            }
            var digests = Set<Data>()
            for value in values {
                let text = value.hasPrefix("sha256/") ? String(value.dropFirst("sha256/".count)) : value
                guard let digest = Data(base64Encoded: text), digest.count == SHA256.byteCount else {
                    throw NetworkError.invalidRequest(reason: "the pin \(value) for \(host) is not a base64 SHA-256 digest")
                }
                digests.insert(digest)
            }
            decoded[host.lowercased(), default: []].formUnion(digests)
        }
        self.init(decoded: decoded)
    }

    private init(decoded: [String: Set<Data>]) {
        pins = decoded
    }

    /// No host pinned.
    public static let none = CertificatePins(decoded: [:])

    /// The digests accepted for `host`, or `nil` when it is not pinned.
    func accepted(for host: String) -> Set<Data>? {
        // `example.com.` is `example.com` (the certificate check takes the dot off too).
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        if let exact = pins[host] { return exact }
        guard let dot = host.firstIndex(of: ".") else { return nil }
        return pins["*" + host[dot...]]
    }

    /// The pin of a certificate's public key, as ``init(_:)`` reads it: `sha256/` and base64.
    /// - Throws: `NIOSSLError` when the key cannot be read.
    public static func pin(of certificate: NIOSSLCertificate) throws -> String {
        "sha256/" + (try digest(of: certificate)).base64EncodedString()
    }

    static func digest(of certificate: NIOSSLCertificate) throws -> Data {
        Data(SHA256.hash(data: try certificate.extractPublicKey().toSPKIBytes()))
    }

    /// Checks the server certificate of a verified handshake with `host`.
    /// - Throws: ``/NetworkingKit/NetworkError/transport(_:)`` with `secureConnectionFailed` and
    ///   a ``CertificatePinMismatch``.
    func check(_ certificate: NIOSSLCertificate?, host: String) throws {
        guard let accepted = accepted(for: host) else { return }
        let presented = certificate.flatMap { try? Self.digest(of: $0) }
        guard let presented, accepted.contains(presented) else {
            let mismatch = CertificatePinMismatch(
                host: host, presentedPin: presented.map { "sha256/" + $0.base64EncodedString() })
            throw NetworkError.transport(TransportFailure(kind: .secureConnectionFailed, underlying: mismatch))
        }
    }
}

/// A server's certificate carried none of the keys pinned for its host: the connection was
/// closed before any byte of the request was sent. The underlying error of a
/// `secureConnectionFailed` ``/NetworkingKit/TransportFailure``.
public struct CertificatePinMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host the connection was for.
    public let host: String
    /// The pin of the key the server presented (`sha256/...`), or `nil` when it presented none
    /// that could be read.
    public let presentedPin: String?

    public var description: String {
        "the certificate of \(host) carries none of the keys pinned for it (it presented \(presentedPin ?? "no readable key"))"
    }
}
#endif
