#if DemoAPI
import Foundation
import NetworkingKit

/// An error the command line reports as one line (`Error: …`) with a non-zero exit status,
/// never as a stack trace or a usage dump.
///
/// The exit statuses, the same for every subcommand (the help of `netkit` lists them):
/// - 0: success (`request`: a 2xx answer);
/// - 3, 4, 5: `request` got a 3xx, 4xx or 5xx answer, shown in full;
/// - 1: no answer (the server could not be reached, the connection failed, the time ran out) or
///   another failure at run time;
/// - 64 (`EX_USAGE`): a mistake in what was typed: an option's value, a URL, a header, a body
///   that is not JSON, a file that cannot be read. Nothing was sent.
struct CLIError: Error, CustomStringConvertible {
    /// The exit status for a mistake in the command line (sysexits.h's `EX_USAGE`).
    static let usageStatus: Int32 = 64
    /// The exit status for a failure at run time, a request that got no answer above all.
    static let failureStatus: Int32 = 1

    let description: String
    let exitStatus: Int32

    init(_ message: String, exitStatus: Int32 = CLIError.failureStatus) {
        // One line, whatever the underlying error's text looks like.
        self.description = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        self.exitStatus = exitStatus
    }

    /// A mistake in the command line: nothing was sent.
    static func usage(_ message: String) -> CLIError {
        CLIError(message, exitStatus: usageStatus)
    }

    /// A library error, said in a line: what failed and why, without the user-facing politeness.
    /// A request the library refused to build is a usage mistake; everything else, a failure.
    init(_ error: NetworkError) {
        switch error {
        case .transport(let failure):
            let target = failure.request.map { "\($0.url?.absoluteString ?? "the server")" } ?? "the server"
            // Where the server was reached, what failed is its answer.
            switch failure.kind {
            case .truncatedBody: self.init("the answer from \(target) was cut off before its end")
            case .connectionLost: self.init("the connection to \(target) was closed before the answer was complete")
            case .invalidResponse: self.init("the answer from \(target) was not valid HTTP")
            // Pins say which host and why: more than "the TLS connection failed".
            case .secureConnectionFailed
            where failure.underlying is CertificatePinMismatch
                || failure.underlying is CertificatePinningUnavailable:
                self.init("cannot reach \(target): \(failure.underlying.map { "\($0)" } ?? "")")
            default: self.init("cannot reach \(target): \(Self.phrase(for: failure.kind))")
            }
        case .timeout(let request):
            self.init("no answer in time from \(request?.url?.absoluteString ?? "the server")")
        case .invalidURL, .invalidRequest, .encodingFailed:
            self.init(error.description, exitStatus: Self.usageStatus)
        default:
            self.init(error.description)
        }
    }

    private static func phrase(for kind: TransportFailure.Kind) -> String {
        switch kind {
        case .connectionRefused: "connection refused (is the server running?)"
        case .hostNotFound: "host not found"
        case .notConnected: "the network is unreachable"
        case .secureConnectionFailed: "the TLS connection failed (is the certificate trusted?)"
        case .connectionLost, .invalidResponse, .truncatedBody, .other: "transport failure"
        }
    }
}
#endif
