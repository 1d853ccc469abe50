#if AsyncHTTPClientTransport || DemoAPI
import CZlib
import Foundation
import NetworkingKit

/// zlib's inflate over one `gzip` or `deflate` body, fed and drained a piece at a time, so that a
/// body is decoded only as fast as it is read: a gzip bomb never gets further than the reader.
///
/// `@unchecked Sendable`: the `z_stream` is used by one iterator, one call at a time (an async
/// iterator's `next()` is never called concurrently); it is heap-allocated because zlib keeps a
/// pointer to it and refuses a stream that has moved.
final class Inflater: @unchecked Sendable {
    /// What the compressed stream did with the last call.
    enum Step {
        /// Produced `Data` (possibly empty, when more input is needed).
        case output(Data)
        /// The compressed stream is complete; no more output.
        case finished
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private var input = Data()
    private var inputOffset = 0
    private var ended = false
    private var feeds = 0
    private var outputWasFull = false
    /// Whether the stream is raw deflate (a `deflate` body without the zlib header, which some
    /// servers send; browsers accept both).
    private var isRaw = false

    /// Fails only when zlib cannot allocate its state.
    init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 32: the largest window, and the gzip or zlib header recognised automatically.
        guard inflateInit2_(stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Inflater.failure("zlib could not start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Whether zlib needs more input to go on: all input given is consumed, and the last call
    /// did not fill its output (zlib may still hold output then, and raw deflate has no trailer
    /// left to feed).
    var needsInput: Bool { inputOffset >= input.count && !ended && !outputWasFull }

    /// Whether the compressed stream has reached its end (a later gzip member may still follow;
    /// see ``feed(_:)``).
    var isFinished: Bool { ended && inputOffset >= input.count }

    /// Whether the stream is at a clean end: nothing started, or the last member complete.
    var isAtEnd: Bool { feeds == 0 || ended }

    /// Adds compressed bytes; call only when ``needsInput`` or ``isFinished``. Bytes after the
    /// end of a stream start another member (gzip allows several, one after the other).
    func feed(_ data: Data) {
        input = data
        inputOffset = 0
        guard !data.isEmpty else { return }
        feeds += 1
        if ended {
            ended = false
            inflateReset(stream)
        }
    }

    /// Decodes from the pending input into at most `capacity` bytes.
    /// - Throws: ``/NetworkingKit/NetworkError`` `invalidResponse` for bytes that are not the declared encoding.
    func inflate(capacity: Int) throws -> Step {
        if isFinished { return .finished }
        var output = Data(count: capacity)
        var produced = 0
        var status: Int32 = Z_OK
        // A local copy (no bytes copied): the closures below must not touch the stored property
        // they are reading from.
        let input = self.input
        try input.withUnsafeBytes { (inputBuffer: UnsafeRawBufferPointer) in
            try output.withUnsafeMutableBytes { (outputBuffer: UnsafeMutableRawBufferPointer) in
                while true {
                    let remaining = input.count - inputOffset
                    // zlib never writes through next_in; its type only lacks the const.
                    stream.pointee.next_in = inputBuffer.baseAddress.map {
                        UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self) + inputOffset)
                    }
                    stream.pointee.avail_in = uInt(remaining)
                    stream.pointee.next_out = outputBuffer.baseAddress.map {
                        $0.assumingMemoryBound(to: Bytef.self) + produced
                    }
                    stream.pointee.avail_out = uInt(capacity - produced)
                    status = CZlib.inflate(stream, Z_NO_FLUSH)
                    let consumed = remaining - Int(stream.pointee.avail_in)
                    inputOffset += consumed
                    produced = capacity - Int(stream.pointee.avail_out)
                    if status == Z_DATA_ERROR, try retryAsRawDeflate() {
                        continue
                    }
                    break
                }
            }
        }
        outputWasFull = produced == capacity
        switch status {
        case Z_STREAM_END:
            outputWasFull = false
            // gzip allows several members one after the other; another one starts a new stream,
            // in this input or in a later one (see `feed`).
            if inputOffset < input.count {
                inflateReset(stream)
            } else {
                ended = true
            }
        case Z_OK:
            break
        case Z_BUF_ERROR where inputOffset >= input.count || produced > 0:
            // No progress without more input (or more room): not an error.
            break
        default:
            throw Self.failure("the body is not valid \(isRaw ? "deflate" : "gzip or deflate") data (zlib status \(status))")
        }
        output.count = produced
        return .output(output)
    }

    /// A `deflate` body that fails before producing anything, within the first input given, may
    /// be raw deflate: start again from that input as raw.
    private func retryAsRawDeflate() throws -> Bool {
        guard !isRaw, feeds == 1, stream.pointee.total_out == 0 else { return false }
        isRaw = true
        inputOffset = 0
        inflateEnd(stream)
        guard inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Self.failure("zlib could not start")
        }
        return true
    }

    static func failure(_ reason: String) -> NetworkError {
        .transport(TransportFailure(kind: .invalidResponse, underlying: InflateError(reason: reason)))
    }
}

/// Why a compressed body could not be decoded.
struct InflateError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
#endif
