import NIOCore

/// The deterministic bytes of `/bytes/{n}` and `/stream/{n}`: SplitMix64 seeded with `seed`, each
/// 64-bit output written little-endian, so a client test can regenerate and compare them.
struct PseudoRandomBytes: Sendable {
    /// Bytes per chunk; a multiple of 8 so only the last chunk cuts a 64-bit word short.
    static let chunkSize = 64 * 1024

    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// The next `count` bytes of the sequence.
    mutating func nextChunk(count: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count)
        var remaining = count
        while remaining >= 8 {
            buffer.writeInteger(next(), endianness: .little)
            remaining -= 8
        }
        if remaining > 0 {
            var word = next()
            for _ in 0..<remaining {
                buffer.writeInteger(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return buffer
    }
}
