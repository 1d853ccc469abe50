#if AsyncHTTPClientTransport || DemoAPI
@_spi(Transport) public import NetworkingKit
public import NIOSSL

extension CertificatePins {
    /// The public-key pin of a certificate, as `CertificatePins` reads it:
    /// `sha256/` and base64.
    /// - Throws: `NIOSSLError` when the certificate cannot be read.
    public static func pin(of certificate: NIOSSLCertificate) throws -> String {
        let der = try certificate.toDERBytes()
        guard let pin = CertificatePin.publicKey(ofCertificate: der) else {
            throw NIOSSLError.failedToLoadCertificate
        }
        return pin.description
    }

    /// Checks the server certificate of a verified handshake with `host`.
    /// - Throws: ``/NetworkingKit/NetworkError/transport(_:)`` with `secureConnectionFailed` and
    ///   a ``/NetworkingKit/CertificatePinMismatch``.
    func check(_ certificate: NIOSSLCertificate?, host: String) throws {
        guard !isEmpty else { return }
        let der = certificate.flatMap { try? $0.toDERBytes() }
        if let mismatch = mismatch(certificate: der, host: host) {
            throw NetworkError.transport(TransportFailure(kind: .secureConnectionFailed, underlying: mismatch))
        }
    }
}
#endif
