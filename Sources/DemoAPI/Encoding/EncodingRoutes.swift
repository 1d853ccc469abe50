#if DemoAPI
import Hummingbird
import NIOCore

/// `/encoding/...`: compressed answers, to test how a client decodes them.
///
/// - `GET /encoding/films?count=N&encoding=gzip|deflate`: a JSON array of `N` identical films
///   (`{"title":"Toy Story","year":1995}`), compressed: repetitive JSON compresses far better
///   than 25:1, as real API answers often do.
/// - `GET /encoding/bomb?inflated=N`: a gzip body that inflates to `N` zero bytes (about a
///   thousandth of that on the wire), compressed as it is sent, so the server never holds it.
@available(macOS 14, iOS 17, tvOS 17, *)
struct EncodingRoutes: Sendable {
    static let maxFilms = 1_000_000
    /// 16 GiB inflated: about 16 MiB on the wire.
    static let maxBombBytes = 16 << 30

    func register(on router: Router<DemoRequestContext>) {
        router.get("/encoding/films") { request, _ in
            try films(request)
        }
        router.get("/encoding/bomb") { request, _ in
            try bomb(request)
        }
    }

    private func films(_ request: Request) throws -> Response {
        let count = try request.queryInt("count", in: 0...Self.maxFilms) ?? 250
        let format: Deflater.Format
        switch request.query("encoding") ?? "gzip" {
        case "gzip": format = .gzip
        case "deflate": format = .deflate
        default: throw APIError.badRequest("Query parameter 'encoding' must be gzip or deflate.")
        }
        let film = #"{"title":"Toy Story","year":1995}"#
        let json = "[" + Array(repeating: film, count: count).joined(separator: ",") + "]"
        guard let deflater = Deflater(format) else {
            throw APIError(status: .internalServerError, code: "internal_error", message: "zlib could not start.")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.contentEncoding] = format == .gzip ? "gzip" : "deflate"
        headers[.vary] = "Accept-Encoding"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: deflater.compress(Array(json.utf8), finish: true)))
    }

    private func bomb(_ request: Request) throws -> Response {
        let inflated = try request.queryInt("inflated", in: 0...Self.maxBombBytes) ?? (1 << 30)
        guard let deflater = Deflater(.gzip) else {
            throw APIError(status: .internalServerError, code: "internal_error", message: "zlib could not start.")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        headers[.contentEncoding] = "gzip"
        // A strong validator, as a static file has: what a resumable download would keep.
        headers[.eTag] = "\"bomb-\(inflated)\""
        let body = ResponseBody { writer in
            let zeros = [UInt8](repeating: 0, count: 1 << 20)
            var remaining = inflated
            while remaining > 0 {
                let step = min(remaining, zeros.count)
                remaining -= step
                let compressed = deflater.compress(step == zeros.count ? zeros : Array(zeros[..<step]), finish: remaining == 0)
                if compressed.readableBytes > 0 {
                    try await writer.write(compressed)
                }
            }
            if inflated == 0 {
                try await writer.write(deflater.compress([], finish: true))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
#endif
