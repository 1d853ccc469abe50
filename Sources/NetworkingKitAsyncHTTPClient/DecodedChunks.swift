#if AsyncHTTPClientTransport || DemoAPI
import Foundation
import NetworkingKit

/// A `gzip` or `deflate` response body decoded as it is read, at most ``chunkSize`` bytes per
/// chunk: the reader's pace and the client's size limit bound the memory, whatever the ratio.
///
/// AsyncHTTPClient's own decompressor is bounded by a ratio (a legitimate, well-compressed JSON
/// answer failed at 25:1) and inflates a whole network read at once (a bomb turns 64 KiB into
/// 64 MiB before anything can stop it); decoding here avoids both.
struct DecodedChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    typealias Element = Data

    /// The most decoded bytes handed out per chunk.
    static var chunkSize: Int { 64 * 1024 }

    /// The `Content-Encoding` values decoded: what both transports send in `Accept-Encoding`.
    static func decodes(_ contentEncoding: String) -> Bool {
        ["gzip", "x-gzip", "deflate"].contains(contentEncoding.trimmingCharacters(in: .whitespaces).lowercased())
    }

    let base: Base
    let request: RequestSummary

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let inflater: Inflater?
        let request: RequestSummary
        var failure: NetworkError?

        mutating func next() async throws -> Data? {
            guard let inflater else {
                throw failure ?? Inflater.failure("zlib could not start")
            }
            while true {
                // At the end of a member, the body may still hold another: read on until it ends,
                // which also lets the transport see the body end rather than a cancellation.
                if inflater.needsInput || inflater.isFinished {
                    guard let chunk = try await base.next() else {
                        // An empty body (a HEAD, a 204) is no stream at all; a stream cut short is.
                        guard inflater.isAtEnd else {
                            throw Self.attaching(request, to: Inflater.failure("the compressed body ended before its end"))
                        }
                        return nil
                    }
                    inflater.feed(chunk)
                    continue
                }
                do {
                    switch try inflater.inflate(capacity: DecodedChunks.chunkSize) {
                    case .output(let data) where !data.isEmpty:
                        return data
                    case .output, .finished:
                        continue
                    }
                } catch let error as NetworkError {
                    throw Self.attaching(request, to: error)
                }
            }
        }

        private static func attaching(_ request: RequestSummary, to error: NetworkError) -> NetworkError {
            guard case .transport(let failure) = error, failure.request == nil else { return error }
            return .transport(
                TransportFailure(kind: failure.kind, code: failure.code, underlying: failure.underlying, request: request))
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        do {
            return AsyncIterator(base: base.makeAsyncIterator(), inflater: try Inflater(), request: request)
        } catch {
            return AsyncIterator(
                base: base.makeAsyncIterator(), inflater: nil, request: request, failure: error as? NetworkError)
        }
    }
}
#endif
