import AsyncHTTPClient
import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

/// A server that stops sending midway through a streamed answer: the request's timeout bounds each
/// wait for the next part of the body, over every transport, so a stalled download ends with
/// `timeout` rather than waiting for whatever limit the transport's own client keeps.
@Suite("Conformance: a body that stalls", .timeLimit(.minutes(5)))
struct StalledBodyTests {
    enum Call: String, CaseIterable, Sendable {
        /// `bytes()` of a GET (AsyncHTTPClient: its delegate-based path).
        case bytes
        /// `bytes()` of a POST with a body (AsyncHTTPClient: its async path).
        case bytesWithBody
        /// `download()` to a file.
        case download
    }

    @Test(
        "a streamed answer whose server stalls after the head and 10 bytes ends with timeout, and a download leaves no file",
        arguments: TransportKind.allCases, Call.allCases)
    func stalledBody(kind: TransportKind, call: Call) async throws {
        try await ByteFaultServer.withServer { server in
            try await Self.withPatientTransport(kind) { transport in
                let client = LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: server.baseURL, transport: transport))
                // Long enough for a busy machine to receive the head; what ends the call is the silence after it.
                var request = Request<Data>(path: "/stall-mid-body", options: RequestOptions(timeout: .seconds(15)))
                if call == .bytesWithBody {
                    request.method = .post
                    request.body = .data(Data("question".utf8), contentType: "text/plain")
                }
                var received = Data()
                // Whether the timeout ended the wait for the head (a very busy machine) or the body.
                var headArrived = false
                let destination = FileManager.default.temporaryDirectory.appendingPathComponent("stalled-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: destination) }
                let error = await networkError {
                    if call == .download {
                        _ = try await client.download(request, to: destination)
                        return
                    }
                    let answer = try await client.bytes(request)
                    headArrived = true
                    for try await chunk in answer.body { received.append(chunk) }
                }
                guard case .timeout? = error else {
                    Issue.record("expected timeout, got \(String(describing: error))")
                    return
                }
                if call != .download { #expect(received == Data("0123456789".utf8), "the head had arrived: \(headArrived)") }
                #expect(!FileManager.default.fileExists(atPath: destination.path))
            }
        }
    }

    /// Runs `body` with a transport of `kind` whose own client never gives up on a silent
    /// connection (AsyncHTTPClient's default read timeout, 90 s, would also end the stall): only
    /// the request's timeout can.
    private static func withPatientTransport(
        _ kind: TransportKind, _ body: (any HTTPTransport) async throws -> Void
    ) async throws {
        guard kind == .asyncHTTPClient else { return try await body(kind.transport) }
        var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
        configuration.timeout.read = nil
        try await withHTTPClient(configuration) { try await body(AsyncHTTPClientTransport(client: $0)) }
    }
}
