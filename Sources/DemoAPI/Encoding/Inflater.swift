#if DemoAPI
import CZlib
import Foundation

/// zlib's inflate, for request bodies sent with `Content-Encoding: gzip` or `deflate` to
/// `/upload`: DemoAPI's own, not the client's, so that a compressed upload is checked by code the
/// client does not share.
///
/// `@unchecked Sendable`: one request handler uses it, one chunk at a time.
final class Inflater: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private(set) var isFinished = false

    /// A decoder for `encoding` (`gzip` or `deflate`); `nil` for another.
    init?(encoding: String) {
        let windowBits: Int32
        switch encoding.lowercased() {
        case "gzip", "x-gzip": windowBits = 15 + 16
        case "deflate": windowBits = 15
        default: return nil
        }
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit2_(stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The decoded bytes of `input`, handed to `output` a piece at a time.
    /// - Throws: `APIError.badRequest` for bytes that are not in the format, or bytes after its end.
    func inflate(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) -> Void) throws {
        guard !input.isEmpty else { return }
        guard !isFinished else { throw APIError.badRequest("The compressed body goes on after its end.") }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.pointee.avail_in = uInt(input.count)
        repeat {
            let status = chunk.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                return CZlib.inflate(stream, Z_NO_FLUSH)
            }
            let produced = chunk.count - Int(stream.pointee.avail_out)
            chunk.withUnsafeBytes { output(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
            switch status {
            case Z_STREAM_END:
                isFinished = true
                guard stream.pointee.avail_in == 0 else { throw APIError.badRequest("The compressed body goes on after its end.") }
                return
            case Z_OK, Z_BUF_ERROR:
                continue
            default:
                throw APIError.badRequest("The body is not valid gzip or deflate data.")
            }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
    }
}
#endif
