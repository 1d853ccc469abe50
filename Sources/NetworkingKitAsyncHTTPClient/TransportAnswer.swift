#if AsyncHTTPClientTransport || DemoAPI
import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NIOHTTP1

/// The answer both SwiftNIO transports return for a response head and its body's chunks: the
/// head as a swift-http-types response, the body checked against its declared length, or decoded
/// as it is read when it is `gzip` or `deflate` and the transport decodes.
enum TransportAnswer {
    static func make<Chunks: AsyncSequence & Sendable>(
        _ request: HTTPRequest, summary: RequestSummary, status: HTTPResponseStatus, headers: HTTPHeaders, chunks: Chunks,
        decodes: Bool
    ) throws -> (HTTPResponse, HTTPBody?) where Chunks.Element == Data {
        let response: HTTPResponse
        let declared: Int64?
        do {
            response = try HTTPResponse(status: status, headers: headers, request: summary)
            declared = try HTTPBody.declaredLength(of: response, isHead: request.method == .head)
        } catch let error as NetworkError {
            throw error.attaching(summary)
        }
        if decodes, let encoding = response.headerFields[.contentEncoding], DecodedChunks<Chunks>.decodes(encoding) {
            return (response, HTTPBody(DecodedChunks(base: chunks, request: summary), length: .unknown, iterationBehavior: .single))
        }
        return (response, HTTPBody(chunks, length: declared.map { .known($0) } ?? .unknown, iterationBehavior: .single))
    }
}
#endif
