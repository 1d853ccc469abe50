import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Maps URLSession's errors to ``NetworkError``.
enum URLErrorMapping {
    static func networkError(for error: any Error, request: RequestSummary) -> NetworkError {
        if let error = error as? NetworkError { return error }
        // On Linux, FoundationNetworking reports NSErrors in NSURLErrorDomain rather than URLError.
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return .transport(TransportFailure(kind: .other, underlying: error, request: request))
        }
        switch nsError.code {
        case URLError.Code.cancelled.rawValue:
            return .cancelled
        case URLError.Code.timedOut.rawValue:
            return .timeout(request)
        case URLError.Code.unknown.rawValue where isTLSFailure(nsError):
            // libcurl's certificate and handshake errors (CURLE_PEER_FAILED_VERIFICATION,
            // CURLE_SSL_CONNECT_ERROR...) reach FoundationNetworking's users as unknown errors;
            // only their text says what they are.
            return .transport(
                TransportFailure(kind: .secureConnectionFailed, code: nsError.code, underlying: error, request: request))
        case URLError.Code.unsupportedURL.rawValue where description(of: nsError).contains("http/0.9"):
            // libcurl's "Received HTTP/0.9 when not allowed": the answer had no status line.
            // (The URL itself was checked before sending: only http and https get this far.)
            return .transport(
                TransportFailure(kind: .invalidResponse, code: nsError.code, underlying: error, request: request))
        case URLError.Code.badServerResponse.rawValue where isEmptyReply(nsError):
            // libcurl (FoundationNetworking) reports a connection closed before any answer as a
            // bad response; Apple's URLSession, as a lost connection. The latter is what happened.
            return .transport(
                TransportFailure(kind: .connectionLost, code: nsError.code, underlying: error, request: request))
        default:
            return .transport(
                TransportFailure(kind: kind(of: nsError.code), code: nsError.code, underlying: error, request: request))
        }
    }

    /// The error's text, lowercased; libcurl's error buffer on Linux.
    private static func description(of error: NSError) -> String {
        (error.userInfo[NSLocalizedDescriptionKey] as? String)?.lowercased() ?? ""
    }

    /// libcurl's texts for TLS failures: "SSL certificate problem: self-signed certificate",
    /// "SSL: no alternative certificate subject name matches", "OpenSSL SSL_connect: ...".
    private static func isTLSFailure(_ error: NSError) -> Bool {
        let text = description(of: error)
        return text.contains("ssl") || text.contains("certificate") || text.contains("tls")
    }

    /// libcurl's "transfer closed with N bytes remaining to read" (CURLE_PARTIAL_FILE) and
    /// "transfer closed with outstanding read data remaining" (a chunked body cut short).
    static func isTransferClosed(_ failure: TransportFailure) -> Bool {
        guard let underlying = failure.underlying else { return false }
        return description(of: underlying as NSError).contains("transfer closed")
    }

    /// libcurl's "Empty reply from server" (CURLE_GOT_NOTHING): the server closed the connection
    /// without a byte of answer.
    private static func isEmptyReply(_ error: NSError) -> Bool {
        (error.userInfo[NSLocalizedDescriptionKey] as? String) == "Empty reply from server"
    }

    // Raw values, because `URLError.Code(rawValue:)` is failable on Linux and not on Apple platforms.
    private static func kind(of rawCode: Int) -> TransportFailure.Kind {
        let codes: [(TransportFailure.Kind, [URLError.Code])] = [
            (.connectionRefused, [.cannotConnectToHost]),
            (.connectionLost, [.networkConnectionLost]),
            (.hostNotFound, [.cannotFindHost, .dnsLookupFailed]),
            (.notConnected, [.notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive]),
            (
                .secureConnectionFailed,
                [
                    .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
                    .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                    .clientCertificateRequired,
                ]
            ),
            (.invalidResponse, [.badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData]),
        ]
        return codes.first { $0.1.contains { $0.rawValue == rawCode } }?.0 ?? .other
    }
}
