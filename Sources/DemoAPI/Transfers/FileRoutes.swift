#if DemoAPI
import Hummingbird
import NIOCore

/// `/files/{n}`: a "file" of `n` deterministic bytes (as `/bytes/{n}`), served as a static file
/// server serves one: `ETag`, `Last-Modified`, `Accept-Ranges`, single byte ranges answered with
/// `206`, unsatisfiable ones with `416`, and `If-Range`. Generated while written, so its size is
/// not bounded by memory. For testing downloads and their resumption:
///
/// - `seed`: which bytes (as `/bytes/{n}`); `key`: a name whose version `POST /files/versions/{key}`
///   bumps, changing both the bytes and the `ETag` at the same URL, as a file replaced on disk.
/// - `cut_at=K`: a request without `Range` has its connection closed once byte `K` has been
///   sent, so a download breaks midway; a resumed request (with `Range`) is served whole.
/// - `ranges=ignore`: `Range` is ignored (always `200`), as by a server without range support.
/// - `validators=none`: neither `ETag` nor `Last-Modified`, so nothing can be resumed safely.
@available(macOS 14, iOS 17, tvOS 17, *)
struct FileRoutes: Sendable {
    static let maxBytes = 4 * 1024 * 1024 * 1024
    /// A fixed `Last-Modified`, so that the date validator is deterministic.
    static let lastModified = HTTPDate.timestamp(year: 2024, month: 6, day: 1)

    let state: DemoState

    /// The size of every film's trailer: large enough for a progress bar and a resumed download.
    static let trailerBytes: Int64 = 4 << 20

    func register(on router: Router<DemoRequestContext>) {
        router.get("/files/{n}") { request, context in
            let size = Int64(try context.pathInt("n", in: 0...Self.maxBytes))
            guard let seed = UInt64(request.query("seed") ?? "0") else {
                throw APIError.badRequest("Query parameter 'seed' must be an unsigned 64-bit integer.")
            }
            return try file(size: size, seed: seed, request, context)
        }
        // What the DocC samples download: a film's trailer, served as any file here is.
        router.get("/films/{id}/trailer") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard FilmCatalog.film(id: id) != nil else { throw APIError.notFound("No film with id '\(id)'.") }
            var hash = FNV1a64()
            hash.update(id.utf8)
            return try file(size: Self.trailerBytes, seed: hash.value, request, context)
        }
        router.post("/files/versions/{key}") { _, context in
            let key = context.parameters.get("key") ?? ""
            let version = try state.fileVersions.withLock { versions -> Int in
                guard versions[key] != nil || versions.count < 100 else {
                    throw APIError.badRequest("At most 100 file keys per server.")
                }
                versions[key, default: 0] += 1
                return versions[key] ?? 0
            }
            return try JSONBody.response(["key": key, "version": "\(version)"])
        }
    }

    /// A file of `size` bytes drawn from `seed`, with the query's options (see the type's overview).
    private func file(size: Int64, seed: UInt64, _ request: Request, _ context: DemoRequestContext) throws -> Response {
        let version = request.query("key").map { key in state.fileVersions.withLock { $0[key] ?? 0 } } ?? 0
        let cutAt = try request.queryInt("cut_at", in: 0...Self.maxBytes).map(Int64.init)
        let effectiveSeed = seed &+ UInt64(version) &* 0x1000_0000_0000_0001
        let etag = "\"\(seed)-\(size)-v\(version)\""

        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        if request.query("validators") != "none" {
            headers[.eTag] = etag
            headers[.lastModified] = HTTPDate.format(Self.lastModified + version)
        }
        let honoursRanges = request.query("ranges") != "ignore"
        if honoursRanges { headers[.acceptRanges] = "bytes" }

        var range = 0..<size
        var status = HTTPResponse.Status.ok
        if honoursRanges, let value = request.headers[.range], Self.ifRangeHolds(request, headers: headers) {
            switch ByteRange.parse(value, size: size) {
            case .satisfiable(let requested):
                range = requested
                status = .partialContent
                headers[.contentRange] = "bytes \(requested.lowerBound)-\(requested.upperBound - 1)/\(size)"
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .ignored:
                break
            }
        }
        let channel = context.channel
        let served = range
        // Only a request without `Range` is cut, so the resumed request completes even when
        // ranges are ignored.
        let cut = request.headers[.range] == nil ? cutAt : nil
        let body = ResponseBody(contentLength: Int(served.count)) { writer in
            var generator = PseudoRandomBytes(seed: effectiveSeed, offset: served.lowerBound)
            var position = served.lowerBound
            while position < served.upperBound {
                var end = min(served.upperBound, position + Int64(PseudoRandomBytes.chunkSize))
                if let cut, position < cut, cut < end { end = cut }
                if end > position {
                    try await writer.write(generator.nextChunk(count: Int(end - position)))
                    position = end
                }
                if let cut, position == cut, cut < served.upperBound {
                    // As /faults/truncated: the bytes written go out first, then the connection ends.
                    channel.close(promise: nil)
                    try await channel.closeFuture.get()
                    throw DeliberateTruncation()
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// `If-Range` (RFC 9110 §13.1.5): the range applies only if the validator still matches; a
    /// strong `ETag` compared strongly, or an exact `Last-Modified` date.
    private static func ifRangeHolds(_ request: Request, headers: HTTPFields) -> Bool {
        guard let condition = request.headers[.ifRange] else { return true }
        if condition.hasPrefix("\"") { return condition == headers[.eTag] }
        return condition == headers[.lastModified]
    }
}

/// A single `Range: bytes=...` request (RFC 9110 §14.1.2); anything with several ranges, or
/// another unit, is ignored (answered with the whole file), as servers may do.
enum ByteRange: Equatable {
    case satisfiable(Range<Int64>)
    case unsatisfiable
    case ignored

    static func parse(_ value: String, size: Int64) -> ByteRange {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return .ignored }
        let spec = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .ignored }
        let first = spec[0].isEmpty ? nil : Int64(spec[0])
        let last = spec[1].isEmpty ? nil : Int64(spec[1])
        switch (first, last) {
        case (let first?, nil):
            return first < size ? .satisfiable(first..<size) : .unsatisfiable
        case (let first?, let last?):
            guard first <= last else { return .ignored }
            return first < size ? .satisfiable(first..<min(size, last + 1)) : .unsatisfiable
        case (nil, let suffix?):
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, size - suffix)..<size)
        case (nil, nil):
            return .ignored
        }
    }
}
#endif
