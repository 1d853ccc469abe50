#if canImport(FoundationNetworking)
import FoundationNetworking
#else
import Foundation
import Security
#endif

/// Certificate pins checked in URLSession's server-trust challenge.
enum ServerTrustPins {
    /// Why the server certificate of a server-trust challenge fails `pins`, or `nil` for another
    /// challenge, a host not pinned or a certificate that passes. FoundationNetworking asks no
    /// server-trust question: there calls to pinned hosts are refused before they start.
    ///
    /// Pins come on top of the system's check. A certificate the system refuses fails as that
    /// (URLSession's default handling then says so), unless the app's handler (`asksApp`) is to
    /// decide about it (a private root): the server's certificate must then match the pins all
    /// the same.
    static func mismatch(in challenge: URLAuthenticationChallenge, pins: CertificatePins, asksApp: Bool) -> CertificatePinMismatch? {
        #if canImport(FoundationNetworking)
        return nil
        #else
        guard !pins.isEmpty, challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust,
            pins.accepted(for: challenge.protectionSpace.host) != nil
        else { return nil }
        if !asksApp, !SecTrustEvaluateWithError(trust, nil) { return nil }
        // The server's own certificate, the chain's first.
        let leaf = (SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.first
        let der = leaf.map { [UInt8](SecCertificateCopyData($0) as Data) }
        return pins.mismatch(certificate: der, host: challenge.protectionSpace.host)
        #endif
    }
}
