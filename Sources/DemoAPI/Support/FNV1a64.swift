#if DemoAPI
/// The 64-bit FNV-1a hash, fed incrementally so `/upload` can hash a body as it streams in.
///
/// Chosen because a client test can recompute it in a few lines, unlike a cryptographic digest.
struct FNV1a64: Sendable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func update(_ bytes: some Sequence<UInt8>) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        value = hash
    }

    /// The hash as 16 lowercase hex digits.
    var hexDigest: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
#endif
