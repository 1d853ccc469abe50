import CZlib
import Foundation

/// zlib's deflate, fed a chunk at a time: what compresses a request body as it streams, in the
/// memory of one chunk in and one buffer out. One body iterator owns it, in one task.
final class Deflate {
    private let stream: UnsafeMutablePointer<z_stream>
    /// zlib writes here, and what it wrote is copied out: one buffer for the compressor's life.
    private var buffer = [UInt8](repeating: 0, count: 32 * 1024)
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
    /// - Throws: ``NetworkError/encodingFailed(reason:underlying:)`` if zlib reports an error.
    func compress(_ input: Data, finish: Bool) throws -> Data {
        guard !finished else { return Data() }
        var output = Data()
        let stream = stream
        var failed = false
        input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            // zlib reads through a mutable pointer but never writes the input.
            stream.pointee.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
            stream.pointee.avail_in = uInt(raw.count)
            buffer.withUnsafeMutableBufferPointer { outputBuffer in
                repeat {
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outputBuffer.count)
                    let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    // Z_BUF_ERROR only says no progress was possible: with room to write and no
                    // flush, all the input is taken. Finishing, with a whole buffer of room, it
                    // cannot happen; were it to, it would repeat for ever, so it ends the body.
                    guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && !finish) else {
                        failed = true
                        return
                    }
                    if let base = outputBuffer.baseAddress {
                        output.append(base, count: outputBuffer.count - Int(stream.pointee.avail_out))
                    }
                    if status == Z_STREAM_END { return }
                    // Z_NO_FLUSH is done once the input is taken and the output had room left;
                    // Z_FINISH goes on until the stream's end.
                } while finish || stream.pointee.avail_out == 0
            }
            stream.pointee.next_in = nil
        }
        if failed { throw RequestCompression.failure }
        if finish { finished = true }
        return output
    }
}
