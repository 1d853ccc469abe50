#if DemoAPI
import NIOCore

/// The deterministic bytes of `/bytes/{n}`, `/stream/{n}` and `/files/{n}`: SplitMix64 seeded with
/// `seed`, each 64-bit output written little-endian, so a client test can regenerate and compare
/// them. Any offset can be reached at once (SplitMix64's state is a counter), for range requests.
struct PseudoRandomBytes: Sendable {
    /// Bytes per chunk; a multiple of 8 so only the last chunk cuts a 64-bit word short.
    static let chunkSize = 64 * 1024
    private static let gamma: UInt64 = 0x9e37_79b9_7f4a_7c15

    private var state: UInt64
    /// The bytes of a word cut by a start offset that are still to be written, low byte first.
    private var pending: (word: UInt64, count: Int)?

    /// The sequence of `seed`, from byte `offset`.
    init(seed: UInt64, offset: Int64 = 0) {
        self.state = seed &+ UInt64(offset / 8) &* Self.gamma
        let skipped = Int(offset % 8)
        if skipped > 0 {
            pending = (next() >> UInt64(8 * skipped), 8 - skipped)
        }
    }

    private mutating func next() -> UInt64 {
        state &+= Self.gamma
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
        if var (word, available) = pending {
            let taken = min(available, remaining)
            for _ in 0..<taken {
                buffer.writeInteger(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
            available -= taken
            remaining -= taken
            pending = available > 0 ? (word, available) : nil
        }
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
            pending = (word, 8 - remaining)
        }
        return buffer
    }
}
#endif
