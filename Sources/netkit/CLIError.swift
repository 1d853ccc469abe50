import Foundation
import NetworkingKit

/// An error the command line reports as one line (`Error: …`) with a non-zero exit status,
/// never as a stack trace or a usage dump.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        // One line, whatever the underlying error's text looks like.
        self.description = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A library error, said in a line: what failed and why, without the user-facing politeness.
    init(_ error: NetworkError) {
        switch error {
        case .transport(let failure):
            let target = failure.request.map { "\($0.url?.absoluteString ?? "the server")" } ?? "the server"
            self.init("cannot reach \(target): \(Self.phrase(for: failure.kind))")
        case .timeout(let request):
            self.init("no answer in time from \(request?.url?.absoluteString ?? "the server")")
        default:
            self.init(error.description)
        }
    }

    private static func phrase(for kind: TransportFailure.Kind) -> String {
        switch kind {
        case .connectionRefused: "connection refused (is the server running?)"
        case .connectionLost: "the connection was closed before the answer was complete"
        case .hostNotFound: "host not found"
        case .notConnected: "the network is unreachable"
        case .secureConnectionFailed: "the TLS connection failed"
        case .invalidResponse: "the answer was not valid HTTP"
        case .truncatedBody: "the answer's body ended early"
        case .other: "transport failure"
        }
    }
}
