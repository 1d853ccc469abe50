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
