import Foundation
import HTTPTypes

/// How a request body is compressed before it is sent: `Content-Encoding: gzip` or `deflate`
/// (RFC 9110 §8.4). For servers that accept compressed uploads (many log, analytics and
/// telemetry endpoints do); set it per endpoint with ``RequestOptions/requestCompression``.
///
/// ```swift
/// var options = RequestOptions()
/// options.requestCompression = .gzip
/// let receipt = try await client.send(Request<UploadReceipt>(path: "/events", method: .post, body: .json(events), options: options))
/// ```
///
/// A streamed body (a file, a stream) is compressed as it is sent, a chunk at a time, in constant
/// memory, and sent without a `Content-Length` (chunked: a server that insists on a length, such
/// as a presigned upload URL, cannot take it); a body in memory is compressed at once and sent with
/// its compressed length. A retry or a redirect that sends the body again compresses it again.
/// Upload progress counts the compressed bytes as they are sent (of an unknown total for a stream).
/// A request that already has a `Content-Encoding`, or an empty body or none, is sent as it is.
public enum RequestCompression: String, Sendable, Hashable {
    /// `Content-Encoding: gzip`.
    case gzip
    /// `Content-Encoding: deflate` (zlib's format, as RFC 9110 defines it).
    case deflate

    /// `body` compressed, and `request` with its `Content-Encoding`; both as they are when there
    /// is nothing to compress.
    func apply(to request: inout HTTPRequest, body: HTTPBody?) throws -> HTTPBody? {
        guard let body, body.length != .known(0), !request.headerFields.contains(.contentEncoding) else { return body }
        if let data = body.bufferedData {
            guard let deflate = Deflate(self) else { throw Self.failure }
            let compressed = try deflate.compress(data, finish: true)
            request.headerFields[.contentEncoding] = rawValue
            request.headerFields[.contentLength] = nil
            return HTTPBody(compressed)
        }
        request.headerFields[.contentEncoding] = rawValue
        request.headerFields[.contentLength] = nil
        return HTTPBody(Compressed(body: body, coding: self), length: .unknown, iterationBehavior: body.iterationBehavior)
    }

    static let failure = NetworkError.encodingFailed(reason: "zlib could not compress the body", underlying: nil)

    /// The chunks of `body`, compressed; each iteration compresses from the start again.
    private struct Compressed: AsyncSequence, Sendable {
        typealias Element = Data
        let body: HTTPBody
        let coding: RequestCompression

        struct AsyncIterator: AsyncIteratorProtocol {
            var source: HTTPBody.Iterator
            let deflate: Deflate?
            var done = false

            mutating func next() async throws -> Data? {
                guard let deflate else { throw RequestCompression.failure }
                while !done {
                    guard let chunk = try await source.next() else {
                        done = true
                        return try deflate.compress(Data(), finish: true)
                    }
                    let compressed = try deflate.compress(chunk, finish: false)
                    // zlib keeps small inputs back; the loop reads on until it has something to send.
                    if !compressed.isEmpty { return compressed }
                }
                return nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(source: body.makeAsyncIterator(), deflate: Deflate(coding))
        }
    }
}

private enum RequestCompressionKey: RequestOptionKey {
    static let defaultValue: RequestCompression? = nil
}

extension RequestOptions {
    /// How the request body is compressed, or `nil` (the default) to send it as it is; see
    /// ``RequestCompression``.
    public var requestCompression: RequestCompression? {
        get { self[RequestCompressionKey.self] }
        set { self[RequestCompressionKey.self] = newValue }
    }
}
