public import Foundation
@_spi(Transport) public import NetworkingKit

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `URLProtocol` that answers a `URLSession`'s requests from a closure, for apps and tests that
/// keep `URLSession` (seeds 002 and 004). Works on Apple platforms and on Linux.
///
/// ```swift
/// MockURLProtocol.register(host: "films.test") { request in
///     #expect(request.httpMethod == "GET")
///     return try MockURLProtocol.json([PixarFilm.toyStory], for: request)
/// }
/// let transport = URLSessionTransport(configuration: MockURLProtocol.configuration())
/// let client = LiveAPIClient(baseURL: URL(string: "https://films.test")!, transport: transport)
/// let films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
/// ```
///
/// Handlers are static because `URLSession` creates the protocol objects itself. Swift Testing
/// runs tests in parallel, so give each test its own host with ``register(host:handler:)``;
/// ``requestHandler`` answers every host that has no handler of its own, as in the seeds.
/// The class is not `Sendable` (Foundation marks `URLProtocol` so) and needs not be: its only
/// shared state, the handlers, sits in a lock. A handler sees the body in `httpBody` even when the session sent it as a stream. Throwing
/// from a handler fails the task with that error (throw a `URLError` to play a network failure).
public final class MockURLProtocol: URLProtocol {
    /// Answers one request with a response and its body, or throws.
    public typealias Handler = @Sendable (URLRequest) throws -> (HTTPURLResponse, Data)

    private struct Handlers {
        var fallback: Handler?
        var byHost: [String: Handler] = [:]
    }

    private static let handlers = LockedState(Handlers())

    /// The handler for hosts without one of their own; `nil` fails such requests with
    /// `URLError(.unsupportedURL)`.
    public static var requestHandler: Handler? {
        get { handlers.withLock { $0.fallback } }
        set { handlers.withLock { $0.fallback = newValue } }
    }

    /// Answers requests to `host` with `handler`, replacing any handler that host had.
    public static func register(host: String, handler: @escaping Handler) {
        handlers.withLock { $0.byHost[host.lowercased()] = handler }
    }

    /// Removes the handler of `host`.
    public static func unregister(host: String) {
        handlers.withLock { $0.byHost[host.lowercased()] = nil }
    }

    /// An ephemeral session configuration whose requests all go to this protocol.
    public static func configuration(
        base: URLSessionConfiguration = .ephemeral
    ) -> URLSessionConfiguration {
        let configuration = base
        configuration.protocolClasses = [MockURLProtocol.self]
        return configuration
    }

    /// A response with `status`, `headers` and `data`, for `request`'s URL.
    /// - Throws: `URLError(.badURL)` when the request has no URL.
    public static func response(
        status: Int = 200,
        data: Data = Data(),
        headers: [String: String] = [:],
        for request: URLRequest
    ) throws -> (HTTPURLResponse, Data) {
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            throw URLError(.badURL)
        }
        return (response, data)
    }

    /// A JSON response with `value` encoded by the client's default encoder (snake_case keys,
    /// ISO 8601 dates) for `request`'s URL.
    public static func json(
        _ value: some Encodable,
        status: Int = 200,
        headers: [String: String] = [:],
        encoder: JSONEncoder = LiveAPIClient.Configuration.defaultEncoder(),
        for request: URLRequest
    ) throws -> (HTTPURLResponse, Data) {
        let data = try encoder.encode(value)
        return try response(
            status: status, data: data,
            headers: headers.merging(["Content-Type": "application/json"]) { own, _ in own }, for: request)
    }

    // MARK: URLProtocol

    /// Every request: nothing leaks to the real network.
    override public class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// The request unchanged.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Answers from the handler for the request's host.
    override public func startLoading() {
        let request: URLRequest
        do {
            request = try Self.withBodyInline(self.request)
        } catch {
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        let host = request.url?.host?.lowercased() ?? ""
        let handler = Self.handlers.withLock { $0.byHost[host] ?? $0.fallback }
        guard let handler else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        do {
            let (response, data) = try handler(request)
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !data.isEmpty {
                client?.urlProtocol(self, didLoad: data)
            }
            client?.urlProtocolDidFinishLoading(self)
        } catch {
            client?.urlProtocol(self, didFailWithError: error)
        }
    }

    /// Nothing to stop: the answer was given at once.
    override public func stopLoading() {}

    /// The request with a streamed body read into `httpBody`, so that handlers find it there.
    /// - Throws: The stream's error, so that a handler never sees a silently cut body.
    private static func withBodyInline(_ request: URLRequest) throws -> URLRequest {
        guard request.httpBody == nil, let stream = request.httpBodyStream else { return request }
        var copy = request
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw stream.streamError ?? URLError(.cannotDecodeRawData) }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        copy.httpBody = data
        return copy
    }
}
