import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

let testBaseURL = URL(string: "https://api.example.com/v1")!

/// A client over a stub transport, with the default configuration otherwise.
func makeClient(
    baseURL: URL? = testBaseURL,
    middlewares: [any Middleware] = [],
    maxResponseBodySize: Int = LiveAPIClient.Configuration.defaultMaxResponseBodySize,
    defaultHeaders: [String: String] = [:],
    errorBodyType: any ServerErrorBody.Type = APIErrorBody.self,
    _ handler: @escaping StubTransport.Handler = { _ in .status(.noContent) }
) -> (LiveAPIClient, StubTransport) {
    let transport = StubTransport(handler)
    let client = LiveAPIClient(
        configuration: LiveAPIClient.Configuration(
            baseURL: baseURL,
            transport: transport,
            middlewares: middlewares,
            defaultHeaders: defaultHeaders,
            maxResponseBodySize: maxResponseBodySize,
            errorBodyType: errorBodyType
        ))
    return (client, transport)
}

/// An endpoint assembled from parts, for tests that vary one part at a time.
struct TestEndpoint: APIEndpoint {
    var baseURL: URL = URL(string: "/")!
    var path: String = "/"
    var method: HTTPMethod = .get
    var headers: [String: String] = [:]
    var queryItems: [URLQueryItem]? = nil
    var requestBody: RequestBody? = nil
    var options: RequestOptions = .default
}

/// The `NetworkError` a call ended with, or `nil` when it succeeded.
func networkError<Value>(of result: Result<Value, any Error>) -> NetworkError? {
    guard case .failure(let error) = result else { return nil }
    return error as? NetworkError ?? .unknown(error)
}

/// Runs `body` and returns the `NetworkError` it throws; fails the test when it throws nothing
/// or another error type.
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

/// An async sequence of chunks that counts how many were pulled, to prove a reader stopped early.
struct CountingChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunkSize: Int
    let chunkCount: Int
    let pulled: Counter

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingChunks
        var index = 0
        mutating func next() async throws -> Data? {
            guard index < sequence.chunkCount else { return nil }
            index += 1
            sequence.pulled.increment()
            return Data(repeating: 0x61, count: sequence.chunkSize)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = LockedState(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Lets other tasks run until `condition` holds: for states the library shows but does not
/// announce (how many callers wait on a refresh or a shared call). No real-time deadline, which a
/// loaded machine could miss: the suite's `.timeLimit` turns a condition that never holds into a
/// failure instead of a hang.
func waitUntil(_ what: Comment? = nil, _ condition: () async -> Bool) async {
    while await !condition() {
        await Task.yield()
    }
}
