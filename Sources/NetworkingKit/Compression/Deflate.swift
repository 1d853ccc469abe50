import CZlib
import Foundation

/// zlib's deflate, fed a chunk at a time: what compresses a request body as it streams, in the
/// memory of one chunk in and one chunk out.
///
/// `@unchecked Sendable`: one body iterator owns it and uses it from one task at a time; the
/// `z_stream` lives on the heap because zlib keeps pointers into it between calls.
final class Deflate: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private var finished = false

    /// A compressor for `coding`; `nil` if zlib cannot start one (out of memory).
    init?(_ coding: RequestCompression) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 bits of window; +16 writes the gzip wrapper, plain 15 the zlib one that
        // `Content-Encoding: deflate` means (RFC 9110 §8.4.1.2).
        let windowBits: Int32 = coding == .gzip ? 15 + 16 : 15
        let status = deflateInit2_(
            stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
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

    /// The compressed bytes for `input`; with `finish`, the end of the stream too (its trailer).
    /// What zlib keeps back to compress better comes out with a later call.
    func compress(_ input: Data, finish: Bool) -> Data {
        guard !finished else { return Data() }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 32 * 1024)
        var input = input
        input.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
            stream.pointee.next_in = raw.bindMemory(to: Bytef.self).baseAddress
            stream.pointee.avail_in = uInt(raw.count)
            var status: Int32
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outputBuffer.count)
                    return deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[..<(chunk.count - Int(stream.pointee.avail_out))])
                // Z_NO_FLUSH: done once the input is taken and the output had room left;
                // Z_FINISH: done at the stream's end.
            } while finish ? status == Z_OK || status == Z_BUF_ERROR && stream.pointee.avail_out == 0 : stream.pointee.avail_out == 0
            stream.pointee.next_in = nil
        }
        if finish { finished = true }
        return output
    }
}
