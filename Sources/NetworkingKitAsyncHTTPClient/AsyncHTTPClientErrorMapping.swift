#if AsyncHTTPClientTransport || DemoAPI
import AsyncHTTPClient
import Foundation
import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Maps AsyncHTTPClient's and SwiftNIO's errors to the same ``/NetworkingKit/NetworkError`` cases as URLSession's.
enum AsyncHTTPClientErrorMapping {
    /// Where in the exchange the error happened: a connection closed before the head is a lost
    /// connection; once the body has started, it is a truncated body.
    enum Phase {
        case head
        case body
    }

    static func networkError(for error: any Error, phase: Phase, request: RequestSummary) -> NetworkError {
        if let error = error as? NetworkError { return error }
        if error is CancellationError { return .cancelled }
        if error is DeadlineExceeded { return .timeout(request) }

        func failure(_ kind: TransportFailure.Kind, code: Int? = nil) -> NetworkError {
            .transport(TransportFailure(kind: kind, code: code, underlying: error, request: request))
        }
        let closed: TransportFailure.Kind = phase == .head ? .connectionLost : .truncatedBody

        switch error {
        case let error as HTTPClientError:
            return map(error, closed: closed, request: request, failure: { failure($0) })
        case let error as NIOConnectionError:
            // Every address was tried; the first real connection error says the most.
            if let first = error.connectionErrors.first {
                return networkError(for: first.error, phase: phase, request: request).replacingUnderlying(with: error)
            }
            return failure(.hostNotFound)
        case let error as IOError:
            return map(errno: error.errnoCode, closed: closed, request: request, failure: { failure($0, code: Int(error.errnoCode)) })
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .timeout(request)
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed: return failure(closed)
            default: return failure(.other)
            }
        case let error as HTTPParserError:
            // The connection closed mid-message: a lost connection or a short body, not bad HTTP.
            return failure(error == .invalidEOFState ? closed : .invalidResponse)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            // NIOSSLExtraError: a certificate for another host name, among others.
            return failure(.secureConnectionFailed)
        default:
            return Task.isCancelled ? .cancelled : failure(.other)
        }
    }

    private static func map(
        _ error: HTTPClientError, closed: TransportFailure.Kind, request: RequestSummary,
        failure: (TransportFailure.Kind) -> NetworkError
    ) -> NetworkError {
        switch error {
        case .cancelled, .requestStreamCancelled:
            return .cancelled
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout,
            .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return .timeout(request)
        case .remoteConnectionClosed, .uncleanShutdown:
            return failure(closed)
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL(request.url?.absoluteString ?? "", reason: error.description)
        case .bodyLengthMismatch:
            return .invalidRequest(reason: "the request body's length differs from the length it declared")
        case .invalidProxyResponse:
            return failure(.invalidResponse)
        default:
            // `unsupportedScheme` and the header checks carry values, so they are matched by text.
            let text = error.description
            if text.contains("unsupportedScheme") {
                return .invalidURL(request.url?.absoluteString ?? "", reason: text)
            }
            if text.contains("invalidHeaderField") {
                return .invalidRequest(reason: text)
            }
            return failure(.other)
        }
    }

    private static func map(
        errno: Int32, closed: TransportFailure.Kind, request: RequestSummary,
        failure: (TransportFailure.Kind) -> NetworkError
    ) -> NetworkError {
        switch errno {
        case ECONNREFUSED: return failure(.connectionRefused)
        case ECONNRESET, EPIPE, ECONNABORTED: return failure(closed)
        case ENETUNREACH, EHOSTUNREACH, ENETDOWN: return failure(.notConnected)
        case ETIMEDOUT: return .timeout(request)
        default: return failure(.other)
        }
    }
}

extension NetworkError {
    /// The same transport failure with a different underlying error (the one the caller saw).
    fileprivate func replacingUnderlying(with error: any Error) -> NetworkError {
        guard case .transport(let failure) = self else { return self }
        return .transport(TransportFailure(kind: failure.kind, code: failure.code, underlying: error, request: failure.request))
    }
}
#endif
