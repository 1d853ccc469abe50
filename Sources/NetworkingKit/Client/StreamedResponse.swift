public import Foundation
public import HTTPTypes

/// A response whose body is read as it arrives: the answer of ``APIClient/bytes(_:)``.
///
/// ```swift
/// let answer = try await client.bytes(Request<Data>(path: "/ndjson"))
/// var size = 0
/// for try await chunk in answer.body {
///     size += chunk.count
/// }
/// ```
///
/// The body can be read once. Errors while reading it are ``NetworkError``s naming the request: a
/// connection cut midway is ``NetworkError/transport(_:)`` with ``TransportFailure/Kind/truncatedBody``.
public struct StreamedResponse: Sendable {
    /// The method and URL of the request.
    public let request: RequestSummary
    /// The response head: status and headers.
    public let response: HTTPResponse
    /// The body, a stream of chunks; empty when the response has none.
    public let body: HTTPBody
    /// Where the answer came from when an ``HTTPCache`` handled the request; `nil` otherwise.
    public let cacheStatus: CacheStatus?
    /// The URLs a redirected request visited; `nil` when it was answered where it was sent.
    private let redirects: [URL]?

    /// Creates a streamed response.
    /// - Parameters:
    ///   - request: The method and URL of the request.
    ///   - response: The response head.
    ///   - body: The body, still to be read.
    ///   - redirectChain: The URLs visited, the first included; empty means the request's own URL
    ///     only.
    ///   - cacheStatus: Where the answer came from, when a cache handled the request.
    public init(
        request: RequestSummary, response: HTTPResponse, body: HTTPBody, redirectChain: [URL] = [],
        cacheStatus: CacheStatus? = nil
    ) {
        self.request = request
        self.response = response
        self.body = body
        self.redirects = redirectChain.count > 1 ? redirectChain : nil
        self.cacheStatus = cacheStatus
    }

    /// The URLs the request visited, in order, the first included (see ``Response/redirectChain``).
    public var redirectChain: [URL] { redirects ?? request.url.map { [$0] } ?? [] }

    /// The URL the answer came from: the request's, or the last redirect's target.
    public var url: URL? { redirects?.last ?? request.url }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }

    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }

    /// The body a caller reads: errors named after the request, and the size limit when one was
    /// asked for.
    static func body(_ body: HTTPBody?, limit: Int?, request: RequestSummary) -> HTTPBody {
        guard let body else { return HTTPBody(Data()) }
        return HTTPBody(
            CheckedChunks(base: body, limit: limit, request: request), length: body.length,
            iterationBehavior: body.iterationBehavior)
    }

    /// A body's chunks with every error a ``NetworkError`` that names the request, stopping with
    /// ``NetworkError/responseTooLarge(limit:request:)`` past `limit`.
    private struct CheckedChunks: AsyncSequence, Sendable {
        typealias Element = Data
        let base: HTTPBody
        let limit: Int?
        let request: RequestSummary

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPBody.Iterator
            let limit: Int?
            let request: RequestSummary
            let refused: Bool
            var received = 0

            mutating func next() async throws -> Data? {
                if refused, let limit { throw NetworkError.responseTooLarge(limit: limit, request: request) }
                do {
                    guard let chunk = try await base.next() else { return nil }
                    received += chunk.count
                    if let limit, received > limit {
                        throw NetworkError.responseTooLarge(limit: limit, request: request)
                    }
                    return chunk
                } catch {
                    throw LiveAPIClient.normalize(error, request: request)
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            // A declared length over the limit fails at the first read, before any byte is read.
            var refused = false
            if let limit, case .known(let declared) = base.length { refused = declared > Int64(limit) }
            return AsyncIterator(base: base.makeAsyncIterator(), limit: limit, request: request, refused: refused)
        }
    }
}
