import AsyncHTTPClient
import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The transports every conformance test runs over.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient
    case nio

    var transport: any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport.shared
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .nio: NIOTransport.shared
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
    // Long: a guard against a hang, not a test. On a busy machine a debug build took 35 s for
    // 10 MB over loopback; a test about timeouts passes its own.
    timeout: Duration = .seconds(120),
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

/// The bytes DemoAPI's `/bytes/{n}?seed=` sends: SplitMix64 outputs, each written little-endian.
func splitMix64Bytes(seed: UInt64, count: Int) -> Data {
    var state = seed
    var data = Data(capacity: count + 8)
    while data.count < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        withUnsafeBytes(of: z.littleEndian) { data.append(contentsOf: $0) }
    }
    return data.prefix(count)
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

/// Runs `body` with a port of 127.0.0.1 that refuses connections: bound by a socket that never
/// listens, and held for as long as `body` runs, so that no server started meanwhile can take it.
func withRefusingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    #if os(Linux)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw PortError.unavailable }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw PortError.unavailable }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}

enum PortError: Error {
    case unavailable
}

/// Runs `body` with an `HTTPClient` on `configuration`, and shuts the client down afterwards,
/// whether `body` returns or throws (a client of one's own is its owner's to shut down).
func withHTTPClient<T>(
    _ configuration: HTTPClient.Configuration, _ body: (HTTPClient) async throws -> T
) async throws -> T {
    let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    let result: T
    do {
        result = try await body(httpClient)
    } catch {
        try await httpClient.shutdown()
        throw error
    }
    try await httpClient.shutdown()
    return result
}
