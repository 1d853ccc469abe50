import Crypto
import Foundation

/// Lowercase hexadecimal, written in place into one string: the request id, and the SHA-256
/// digests that name cache partitions, `Vary` values and cache files (a string per byte made a
/// cached call a fifth dearer).
enum LowercaseHex {
    /// The SHA-256 digest of `text`'s UTF-8 bytes, 64 digits.
    static func sha256(of text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).withUnsafeBytes { string(of: $0) }
    }

    /// Two digits a byte.
    static func string(of bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }

    /// Sixteen digits, zero-padded.
    static func string(of value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                buffer[index] = digits[Int(truncatingIfNeeded: value >> (60 - 4 * index)) & 0xF]
            }
            return 16
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
