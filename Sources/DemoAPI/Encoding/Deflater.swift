#if DemoAPI
import CZlib
import NIOCore

/// zlib's deflate, for DemoAPI's compressed answers (gzip or zlib-wrapped deflate, fed a piece at
/// a time) and ByteFaultServer's hand-made `permessage-deflate` frames (raw deflate). DemoAPI's own, not the client's decoder: the server a client is tested against must
/// not share its code.
///
/// `@unchecked Sendable`: one response body writer uses it, one call at a time; the `z_stream` is
/// heap-allocated because zlib keeps a pointer to it.
final class Deflater: @unchecked Sendable {
    enum Format {
        /// `Content-Encoding: gzip`.
        case gzip
        /// `Content-Encoding: deflate`: the zlib format (RFC 1950), as RFC 9110 defines it.
        case deflate
        /// Raw deflate (RFC 1951), as `permessage-deflate` carries it.
        case raw
    }

    private let stream: UnsafeMutablePointer<z_stream>

    init?(_ format: Format) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let windowBits: Int32 =
            switch format {
            case .gzip: 15 + 16
            case .deflate: 15
            case .raw: -15
            }
        guard
            deflateInit2_(
                stream, Z_BEST_SPEED, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`; with `finish`, also ends the stream (trailer included).
    func compress(_ input: [UInt8], finish: Bool) -> ByteBuffer {
        compress(input, flush: finish ? Z_FINISH : Z_NO_FLUSH)
    }

    /// `input` as one `permessage-deflate` message (RFC 7692 §7.2.1): compressed, flushed to a
    /// byte boundary, its final `00 00 ff ff` left out.
    func message(_ input: [UInt8]) -> [UInt8] {
        let flushed = compress(input, flush: Z_SYNC_FLUSH)
        return Array(flushed.readableBytesView.dropLast(4))
    }

    private func compress(_ input: [UInt8], flush: Int32) -> ByteBuffer {
        let finish = flush == Z_FINISH
        var output = ByteBuffer()
        var input = input
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = uInt(inputBuffer.count)
            var status: Int32 = Z_OK
            repeat {
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                chunk.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outputBuffer.count)
                    status = deflate(stream, flush)
                }
                let produced = chunk.count - Int(stream.pointee.avail_out)
                output.writeBytes(chunk[..<produced])
            } while stream.pointee.avail_in > 0 || (finish && status != Z_STREAM_END) || stream.pointee.avail_out == 0
        }
        return output
    }
}
#endif
