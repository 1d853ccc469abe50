#if DemoAPI
import Hummingbird
import NIOCore

/// `/bytes/{n}`, `/stream/{n}`, `/status/{code}` and the `/redirect/...` family: fixed answers of a
/// chosen size, status or location, for testing a client's body streaming and redirect handling.
@available(macOS 14, iOS 17, tvOS 17, *)
struct StatusRoutes: Sendable {
    static let maxBytes = 64 * 1024 * 1024
    static let maxRedirectChain = 100

    func register(on router: Router<DemoRequestContext>) {
        router.get("/bytes/{n}") { request, context in
            try bytes(request, context, chunked: false)
        }
        router.get("/stream/{n}") { request, context in
            try bytes(request, context, chunked: true)
        }
        router.any("/status/{code}") { _, context in
            let raw = context.parameters.get("code") ?? ""
            guard let code = Int(raw), (200...599).contains(code) else {
                throw APIError.badRequest("The status must be an integer from 200 to 599, not '\(raw)'.")
            }
            let status = HTTPResponse.Status(code: code)
            guard status.mayHaveBody else { return Response(status: status) }
            return try JSONBody.response(["message": "status \(code)"], status: status)
        }
        router.get("/html") { _, _ in
            // What a proxy, a captive portal or a load balancer's maintenance page answers in
            // place of an API: 200, and HTML.
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            let page = "<!DOCTYPE html><html><head><title>Sign in to the network</title></head><body>Maintenance</body></html>"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }
        router.any("/redirect/{code}") { request, context in
            let code = try context.pathInt("code", in: 300...308)
            // `body_bytes` gives the redirect a body of its own, which a client must read or drop.
            let bodySize = try request.queryInt("body_bytes", in: 0...Self.maxBytes) ?? 0
            return redirect(code: code, to: request.query("to") ?? "/echo", bodySize: bodySize)
        }
        router.any("/redirect/chain/{n}") { _, context in
            let remaining = try context.pathInt("n", in: 0...Self.maxRedirectChain)
            return redirect(code: 302, to: remaining == 0 ? "/echo" : "/redirect/chain/\(remaining - 1)")
        }
        router.any("/redirect/loop/a") { _, _ in
            redirect(code: 302, to: "/redirect/loop/b")
        }
        router.any("/redirect/loop/b") { _, _ in
            redirect(code: 302, to: "/redirect/loop/a")
        }
    }

    private func redirect(code: Int, to location: String, bodySize: Int = 0) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        guard bodySize > 0 else { return Response(status: HTTPResponse.Status(code: code), headers: headers) }
        headers[.contentType] = "text/plain"
        var buffer = ByteBuffer()
        buffer.writeRepeatingByte(UInt8(ascii: "r"), count: bodySize)
        return Response(status: HTTPResponse.Status(code: code), headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// `n` deterministic bytes, generated while they are written.
    private func bytes(_ request: Request, _ context: DemoRequestContext, chunked: Bool) throws -> Response {
        let count = try context.pathInt("n", in: 0...Self.maxBytes)
        let rawSeed = request.query("seed") ?? "0"
        guard let seed = UInt64(rawSeed) else {
            throw APIError.badRequest("Query parameter 'seed' must be an unsigned 64-bit integer.")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        let body = ResponseBody(contentLength: chunked ? nil : count) { writer in
            var generator = PseudoRandomBytes(seed: seed)
            var remaining = count
            while remaining > 0 {
                let size = min(remaining, PseudoRandomBytes.chunkSize)
                try await writer.write(generator.nextChunk(count: size))
                remaining -= size
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
#endif
