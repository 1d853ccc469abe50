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
        default:
            return .transport(
                TransportFailure(kind: kind(of: nsError.code), code: nsError.code, underlying: error, request: request))
        }
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
