#if DemoAPI
import Crypto
import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// `POST /upload/multipart`: a `multipart/form-data` body read as it streams in, by an
/// independent parser (vapor's MultipartKit), answered with each part's name, filename, content
/// type, size and SHA-256, so a client test can check its encoder part by part without the
/// server holding the body: a 1 GiB form costs no more memory than a small one.
///
/// `fail_times=N&key=K` answers `503` (after reading the whole body) to the first `N` uploads
/// of key `K`, for testing that a retry sends the form again.
@available(macOS 14, iOS 17, tvOS 17, *)
struct UploadRoutes: Sendable {
    static let maxUploadBytes: Int64 = 8 * 1024 * 1024 * 1024

    let state: DemoState

    func register(on router: Router<DemoRequestContext>) {
        router.post("/upload/multipart") { request, _ in
            try await multipart(request)
        }
    }

    struct PartDigest: Codable, Sendable, Equatable {
        var name: String?
        var filename: String?
        /// The RFC 8187 `filename*`, decoded.
        var filenameStar: String?
        var contentType: String?
        var size: Int64
        var sha256: String

        private enum CodingKeys: String, CodingKey {
            case name, filename, size, sha256
            case filenameStar = "filename_star"
            case contentType = "content_type"
        }
    }

    private struct Answer: Encodable {
        var size: Int64
        var parts: [PartDigest]
    }

    /// The part being read, and the parts read.
    private final class Collector {
        var parts: [PartDigest] = []
        var headers: [(String, String)] = []
        var hasher = SHA256()
        var size: Int64 = 0

        func complete() {
            var part = PartDigest(size: size, sha256: hasher.finalize().hexDigest)
            for (name, value) in headers {
                switch name.lowercased() {
                case "content-type": part.contentType = value
                case "content-disposition":
                    let parameters = DispositionParameters.parse(value)
                    part.name = parameters["name"]
                    part.filename = parameters["filename"]
                    part.filenameStar = parameters["filename*"].flatMap(DispositionParameters.decodeRFC8187)
                default: break
                }
            }
            parts.append(part)
            headers = []
            hasher = SHA256()
            size = 0
        }
    }

    private func multipart(_ request: Request) async throws -> Response {
        guard let boundary = request.headers[.contentType].flatMap(Multipart.boundary(contentType:)) else {
            throw APIError.badRequest("The body must be multipart/form-data with a boundary.")
        }
        let parser = MultipartParser(boundary: boundary)
        let collector = Collector()
        parser.onHeader = { name, value in collector.headers.append((name, value)) }
        parser.onBody = { buffer in
            collector.size += Int64(buffer.readableBytes)
            buffer.withUnsafeReadableBytes { collector.hasher.update(bufferPointer: $0) }
        }
        parser.onPartComplete = { collector.complete() }
        var total: Int64 = 0
        for try await buffer in request.body {
            total += Int64(buffer.readableBytes)
            guard total <= Self.maxUploadBytes else { throw APIError.tooLarge(limit: Int(Self.maxUploadBytes)) }
            do {
                try parser.execute(buffer)
            } catch {
                throw APIError.badRequest("The multipart body is malformed.")
            }
        }
        if let failures = try request.queryInt("fail_times", in: 0...100), let key = request.query("key"),
            let attempt = state.stats.recordFaultAttempt(key: key), attempt <= failures
        {
            throw APIError(
                status: .serviceUnavailable, code: "unavailable", message: "Injected 503 for upload \(attempt) of '\(key)'.")
        }
        return try JSONBody.response(Answer(size: total, parts: collector.parts))
    }
}

/// The parameters of a `Content-Disposition` value: `form-data; name="a;b"; filename*=UTF-8''%C3%A9`,
/// quoted strings kept whole (a `;` inside one does not split it).
enum DispositionParameters {
    static func parse(_ value: String) -> [String: String] {
        var parameters: [String: String] = [:]
        var index = value.startIndex
        // Skip the disposition type.
        while index < value.endIndex, value[index] != ";" { index = value.index(after: index) }
        while index < value.endIndex {
            index = value.index(after: index)  // past ";"
            while index < value.endIndex, value[index] == " " { index = value.index(after: index) }
            let nameStart = index
            while index < value.endIndex, value[index] != "=", value[index] != ";" { index = value.index(after: index) }
            let name = value[nameStart..<index].lowercased()
            guard index < value.endIndex, value[index] == "=" else { continue }
            index = value.index(after: index)
            var parsed = ""
            if index < value.endIndex, value[index] == "\"" {
                index = value.index(after: index)
                while index < value.endIndex, value[index] != "\"" {
                    if value[index] == "\\", value.index(after: index) < value.endIndex { index = value.index(after: index) }
                    parsed.append(value[index])
                    index = value.index(after: index)
                }
                if index < value.endIndex { index = value.index(after: index) }
                while index < value.endIndex, value[index] != ";" { index = value.index(after: index) }
            } else {
                let start = index
                while index < value.endIndex, value[index] != ";" { index = value.index(after: index) }
                parsed = value[start..<index].trimmingCharacters(in: .whitespaces)
            }
            parameters[name] = parsed
        }
        return parameters
    }

    /// `UTF-8''%E2%82%AC%20rates` as `€ rates`; `nil` for another charset or a bad encoding.
    static func decodeRFC8187(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return pieces[2].removingPercentEncoding
    }
}

extension SHA256.Digest {
    /// The digest as lowercase hex, as `/upload` and `/upload/multipart` report it.
    var hexDigest: String {
        map { String(format: "%02x", $0) }.joined()
    }
}
#endif
