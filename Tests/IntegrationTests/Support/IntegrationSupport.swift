import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

/// The transports every conformance test runs over.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var transport: any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport.shared
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        }
    }

    var testDescription: String { rawValue }
}

/// Runs `body` against a fresh DemoAPI server of its own, stopped afterwards whatever happens.
func withDemoServer<T>(_ body: (DemoServer) async throws -> T) async throws -> T {
    try await DemoServer.withServer(DemoServer.Configuration(), body)
}

/// A client for `server` over `kind`, with the default coders unless told otherwise.
func makeClient(
    _ server: DemoServer,
    _ kind: TransportKind,
    timeout: Duration = .seconds(30),
    maxResponseBodySize: Int = LiveAPIClient.Configuration.defaultMaxResponseBodySize,
    redirectPolicy: RedirectPolicy = .default
) -> LiveAPIClient {
    LiveAPIClient(
        configuration: LiveAPIClient.Configuration(
            baseURL: server.baseURL,
            transport: kind.transport,
            timeout: timeout,
            maxResponseBodySize: maxResponseBodySize,
            redirectPolicy: redirectPolicy
        ))
}

/// What DemoAPI's `/echo` answers.
struct Echo: Decodable, Sendable {
    struct Part: Decodable, Sendable {
        let name: String
        let filename: String?
        let contentType: String?
        let size: Int
        let text: String?
    }

    let method: String
    let path: String
    let query: String?
    let headers: [String: String]
    let body: String?
    let bodyBase64: String
    let bodySize: Int
    let parts: [Part]?
}

/// What DemoAPI's `/upload` answers.
struct UploadReceipt: Decodable, Sendable, Equatable {
    let size: Int
    let fnv1a64: String
}

/// FNV-1a (64-bit) of `data` as 16 hex digits: the checksum DemoAPI's `/upload` reports.
func fnv1a64(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

/// Runs `body` and returns the `NetworkError` it throws, or `nil` when it throws nothing.
func networkError(_ body: () async throws -> Void) async -> NetworkError? {
    do {
        try await body()
        return nil
    } catch let error as NetworkError {
        return error
    } catch {
        return .unknown(error)
    }
}

/// The transport failure kind of an error, if it is one.
extension NetworkError {
    var transportKind: TransportFailure.Kind? {
        if case .transport(let failure) = self { return failure.kind }
        return nil
    }

    var redirectReason: RedirectFailure.Reason? {
        if case .redirectFailed(let failure) = self { return failure.reason }
        return nil
    }

    var isTimeout: Bool {
        if case .timeout = self { return true }
        return false
    }

    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// A port nothing listens on: one a server had and gave back.
func closedPort() async throws -> Int {
    try await withDemoServer { $0.port }
}
