import CZlib
import Foundation
import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// The AsyncHTTPClient transport's own gzip and deflate decoding, on bodies split as a network
/// splits them.
@Suite("Content decoding")
struct ContentDecodingTests {
    /// `data` compressed by zlib: `windowBits` 31 for gzip, 15 for zlib-wrapped deflate, -15 for raw.
    private func compress(_ data: Data, windowBits: Int32) throws -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw TestFailure.zlib }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer -> Int in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                _ = deflate(&stream, Z_FINISH)
                return outputBuffer.count - Int(stream.avail_out)
            }
        }
        return Data(output[..<produced])
    }

    private enum TestFailure: Error {
        case zlib
    }

    private func decoded(_ chunks: [Data]) async throws -> Data {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        chunks.forEach { continuation.yield($0) }
        continuation.finish()
        let request = RequestSummary(HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: "/"))
        var result = Data()
        for try await chunk in DecodedChunks(base: stream, request: request) {
            #expect(chunk.count <= 64 * 1024)
            result.append(chunk)
        }
        return result
    }

    /// Text that compresses, but not to nothing.
    private func text(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(ascii: "a") + UInt8((state >> 59) % 8)
            })
    }

    @Test("gzip members one after the other decode whole, wherever the body is split")
    func multipleMembers() async throws {
        let first = text(70_000, seed: 1)
        let second = text(50_000, seed: 2)
        let a = try compress(first, windowBits: 31)
        let b = try compress(second, windowBits: 31)
        // A member ending exactly at a chunk's end once lost everything after it.
        #expect(try await decoded([a, b]) == first + second)
        #expect(try await decoded([a + b]) == first + second)
        #expect(try await decoded([a.prefix(10), a.dropFirst(10) + b.prefix(3), b.dropFirst(3)]) == first + second)
    }

    @Test("raw and zlib-wrapped deflate decode whole when the output fills at the input's end")
    func deflateFillingTheOutput() async throws {
        // Around 64 KiB of output, zlib can take all the input yet still hold output; raw
        // deflate has no trailer left to feed, and this was reported as a cut-short body.
        for count in stride(from: 65_400, through: 65_700, by: 7) {
            let original = text(count, seed: UInt64(count))
            for windowBits: Int32 in [-15, 15] {
                let compressed = try compress(original, windowBits: windowBits)
                #expect(try await decoded([compressed]) == original, "\(count) bytes, windowBits \(windowBits)")
            }
        }
    }

    @Test("a compressed body cut short, or bytes that are not compressed, are invalidResponse")
    func badBodies() async throws {
        let compressed = try compress(text(10_000, seed: 3), windowBits: 31)
        for chunks in [[compressed.prefix(compressed.count / 2)], [Data("not gzip at all, not even close".utf8)]] {
            do {
                _ = try await decoded(chunks)
                Issue.record("expected an error")
            } catch let error as NetworkError {
                guard case .transport(let failure) = error else {
                    Issue.record("expected a transport failure, got \(error)")
                    continue
                }
                #expect(failure.kind == .invalidResponse)
            }
        }
        #expect(try await decoded([]) == Data())
    }
}
