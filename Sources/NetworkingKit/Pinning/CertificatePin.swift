import Crypto
public import Foundation

/// One key or certificate a pinned host may present: the SHA-256 digest of its
/// SubjectPublicKeyInfo (a public-key pin, RFC 7469's `pin-sha256` and OkHttp's `sha256/`), or of
/// the whole certificate.
///
/// Prefer public-key pins: a certificate renewed with the same key still matches, where a
/// certificate pin breaks at every renewal.
public struct CertificatePin: Sendable, Hashable, CustomStringConvertible {
    /// What the digest is of.
    public enum Kind: Sendable, Hashable {
        /// The certificate's SubjectPublicKeyInfo (its key and the key's algorithm).
        case publicKey
        /// The certificate's DER bytes.
        case certificate
    }

    /// What the digest is of.
    public let kind: Kind
    /// The SHA-256 digest, 32 bytes.
    public let sha256: Data

    /// A public-key pin from its usual spelling: `sha256/` and the base64 digest, or the digest
    /// alone.
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the text is not a base64 SHA-256
    ///   digest.
    public init(_ text: String) throws {
        self = try Self(kind: .publicKey, base64: text.hasPrefix("sha256/") ? String(text.dropFirst(7)) : text)
    }

    /// A pin of a certificate's public key, by the base64 SHA-256 of its SubjectPublicKeyInfo
    /// (with or without `sha256/`).
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when it is not a base64 SHA-256 digest.
    public static func publicKey(sha256 base64: String) throws -> CertificatePin {
        try CertificatePin(base64)
    }

    /// A pin of one certificate, by the base64 SHA-256 of its DER bytes (with or without
    /// `sha256/`).
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when it is not a base64 SHA-256 digest.
    public static func certificate(sha256 base64: String) throws -> CertificatePin {
        try CertificatePin(kind: .certificate, base64: base64.hasPrefix("sha256/") ? String(base64.dropFirst(7)) : base64)
    }

    /// The public-key pin of a certificate given as DER bytes, or `nil` when they are not a
    /// certificate.
    public static func publicKey(ofCertificate der: some DataProtocol) -> CertificatePin? {
        SubjectPublicKeyInfo.bytes(inCertificate: Array(der)).map { CertificatePin(kind: .publicKey, digest: $0) }
    }

    /// The certificate pin of a certificate given as DER bytes.
    public static func certificate(ofCertificate der: some DataProtocol) -> CertificatePin {
        CertificatePin(kind: .certificate, digest: Array(der)[...])
    }

    private init(kind: Kind, base64: String) throws {
        guard let digest = Data(base64Encoded: base64), digest.count == SHA256.byteCount else {
            throw NetworkError.invalidRequest(reason: "the pin \(base64) is not a base64 SHA-256 digest")
        }
        self.kind = kind
        self.sha256 = digest
    }

    init(kind: Kind, digest bytes: ArraySlice<UInt8>) {
        self.kind = kind
        self.sha256 = Data(SHA256.hash(data: bytes))
    }

    /// `sha256/…` for a public-key pin, `certificate sha256/…` for a certificate pin.
    public var description: String {
        (kind == .publicKey ? "sha256/" : "certificate sha256/") + sha256.base64EncodedString()
    }
}
