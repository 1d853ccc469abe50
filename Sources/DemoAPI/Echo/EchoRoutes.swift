#if DemoAPI
import Crypto
import Foundation
import Hummingbird
import NIOCore

/// `/echo` (any method, any sub-path) and `/upload`: the server's view of a request, for testing
/// exactly what a client put on the wire.
@available(macOS 14, iOS 17, tvOS 17, *)
struct EchoRoutes: Sendable {
    static let maxEchoBytes = 16 * 1024 * 1024
    /// Bounded only so a runaway client stops; the body streams through a hash, never held.
    static let maxUploadBytes = 8 * 1024 * 1024 * 1024

    func register(on router: Router<DemoRequestContext>) {
        router.any("/echo") { request, _ in
            try await echo(request)
        }
        router.any("/echo/**") { request, _ in
            try await echo(request)
        }
        router.post("/upload") { request, _ in
            try await upload(request)
        }
        router.put("/upload") { request, _ in
            try await upload(request)
        }
    }

    private struct Echo: Encodable {
        var method: String
        var path: String
        var query: String?
        var headers: [String: String]
        var body: String?
        var bodyBase64: String
        var bodySize: Int
        var parts: [MultipartPart]?

        private enum CodingKeys: String, CodingKey {
            case method, path, query, headers, body, parts
            case bodyBase64 = "body_base64"
            case bodySize = "body_size"
        }

        // Written by hand so absent values appear as `null` rather than being left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
            try container.encode(path, forKey: .path)
            try container.encode(query, forKey: .query)
            try container.encode(headers, forKey: .headers)
            try container.encode(body, forKey: .body)
            try container.encode(bodyBase64, forKey: .bodyBase64)
            try container.encode(bodySize, forKey: .bodySize)
            try container.encode(parts, forKey: .parts)
        }
    }

    private func echo(_ request: Request) async throws -> Response {
        let buffer = try await JSONBody.collect(request, limit: Self.maxEchoBytes)
        let bytes = Array(buffer.readableBytesView)
        var headers: [String: String] = [:]
        // HTTPTypes moves `Host` into the authority; put it back so the echo shows what was sent.
        if let authority = request.head.authority {
            headers["host"] = authority
        }
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        var parts: [MultipartPart]?
        if let boundary = request.headers[.contentType].flatMap(Multipart.boundary(contentType:)) {
            do {
                parts = try Multipart.parse(bytes, boundary: boundary)
            } catch {
                throw APIError.badRequest("The multipart body is malformed: \(error.reason).")
            }
        }
        let echo = Echo(
            method: request.method.rawValue,
            path: request.uri.path,
            query: request.uri.query,
            headers: headers,
            body: String(bytes: bytes, encoding: .utf8),
            bodyBase64: Data(bytes).base64EncodedString(),
            bodySize: bytes.count,
            parts: parts
        )
        return try JSONBody.response(echo)
    }

    private struct UploadResult: Encodable {
        var size: Int
        var fnv1a64: String
        var sha256: String
        /// The bytes received, when the body came compressed (`Content-Encoding`); `size` and the
        /// digests are of the decoded body.
        var encodedSize: Int?

        enum CodingKeys: String, CodingKey {
            case size, fnv1a64, sha256
            case encodedSize = "encoded_size"
        }
    }

    /// Hashes the body as it streams in, so its size is bounded only by ``maxUploadBytes``, not memory.
    private func upload(_ request: Request) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > Self.maxUploadBytes {
            throw APIError.tooLarge(limit: Self.maxUploadBytes)
        }
        var size = 0
        var encodedSize = 0
        var hash = FNV1a64()
        var sha256 = SHA256()
        // A compressed upload is decoded as it arrives; the digests are of what it decodes to.
        let encoding = request.headers[.contentEncoding]
        let inflater = try encoding.map { encoding in
            guard let inflater = Inflater(encoding: encoding) else {
                throw APIError(
                    status: .unsupportedMediaType, code: "unsupported_encoding",
                    message: "Content-Encoding \(encoding) is not gzip or deflate.")
            }
            return inflater
        }
        func take(_ bytes: UnsafeRawBufferPointer) {
            size += bytes.count
            hash.update(bytes)
            sha256.update(bufferPointer: bytes)
        }
        for try await buffer in request.body {
            encodedSize += buffer.readableBytes
            if let inflater {
                try buffer.withUnsafeReadableBytes { try inflater.inflate($0, take) }
            } else {
                buffer.withUnsafeReadableBytes(take)
            }
            guard size <= Self.maxUploadBytes else {
                throw APIError.tooLarge(limit: Self.maxUploadBytes)
            }
        }
        if let inflater, !inflater.isFinished {
            throw APIError.badRequest("The compressed body ends before its end.")
        }
        return try JSONBody.response(
            UploadResult(
                size: size, fnv1a64: hash.hexDigest, sha256: sha256.finalize().hexDigest, encodedSize: inflater == nil ? nil : encodedSize))
    }
}
#endif
