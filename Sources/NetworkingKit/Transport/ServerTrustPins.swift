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
    static func mismatch(in challenge: URLAuthenticationChallenge, pins: CertificatePins) -> CertificatePinMismatch? {
        #if canImport(FoundationNetworking)
        return nil
        #else
        guard !pins.isEmpty, challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust
        else { return nil }
        // The leaf comes first; the system's own evaluation (or the app's handler) follows.
        let leaf = (SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.first
        let der = leaf.map { [UInt8](SecCertificateCopyData($0) as Data) }
        return pins.mismatch(certificate: der, host: challenge.protectionSpace.host)
        #endif
    }
}
