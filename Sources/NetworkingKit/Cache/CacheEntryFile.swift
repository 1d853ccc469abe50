import Foundation
import HTTPTypes

/// The bytes of one ``DiskCacheStorage`` file: a key and all its variants.
///
/// The layout is a fixed header, a JSON description of the entry, then the bodies back to back:
///
/// ```
/// 8 bytes   magic "NKCACHE\n"
/// 4 bytes   format version, big-endian (currently 2)
/// 4 bytes   length of the JSON that follows, big-endian
/// n bytes   JSON: the key, and per variant its response head, dates, vary values and body length
/// rest      the bodies, in the order of the variants, exactly as long as the lengths add up to
/// ```
///
/// Bodies stay raw rather than base64 inside the JSON, which would make every file a third larger
/// and every read slower. The version comes before anything else so that a future layout turns
/// every older file into a miss instead of a misread. Decoding checks every length, so a truncated
/// or padded file is rejected rather than served with a short or shifted body.
struct CacheEntryFile: Equatable {
    /// The layout this code writes and the only one it reads. Version 2 stores digests of the
    /// vary values; version 1 files may hold them (cookies, tokens) in plain text, and are
    /// dropped, deleting them, when read.
    static let formatVersion: UInt32 = 2

    private static let magic = Data("NKCACHE\n".utf8)
    private static let headerLength = 16

    /// The key the entry belongs to, checked on every read so that a file reached through a hash
    /// collision, or renamed by hand, is never served for another key.
    var key: CacheKey
    /// The variants, most recently stored first.
    var variants: [CachedResponse]

    private struct Description: Codable {
        var key: CacheKey
        var variants: [VariantDescription]
    }

    private struct VariantDescription: Codable {
        var response: HTTPResponse
        var requestTime: Date
        var responseTime: Date
        var varyValues: [String: String]
        var bodyLength: Int
    }

    /// The file's bytes.
    func encoded() throws -> Data {
        let description = Description(
            key: key,
            variants: variants.map {
                VariantDescription(
                    response: $0.response, requestTime: $0.requestTime, responseTime: $0.responseTime,
                    varyValues: $0.varyValues, bodyLength: $0.body.count)
            })
        let json = try JSONEncoder().encode(description)
        var data = Data(capacity: Self.headerLength + json.count + variants.reduce(0) { $0 + $1.body.count })
        data.append(Self.magic)
        data.append(contentsOf: Self.bigEndianBytes(Self.formatVersion))
        data.append(contentsOf: Self.bigEndianBytes(UInt32(json.count)))
        data.append(json)
        for variant in variants {
            data.append(variant.body)
        }
        return data
    }

    /// The entry in `data`, or `nil` when it is not a complete file of the current format.
    init?(decoding data: Data) {
        // Offsets below are from the start of the file, wherever `data`'s indices begin.
        func bytes(_ offset: Int, _ length: Int) -> Data {
            data.subdata(in: data.startIndex + offset..<data.startIndex + offset + length)
        }
        guard data.count >= Self.headerLength,
            bytes(0, 8) == Self.magic,
            Self.uint32(bytes(8, 4)) == Self.formatVersion
        else { return nil }
        let jsonLength = Int(Self.uint32(bytes(12, 4)))
        guard jsonLength <= data.count - Self.headerLength,
            let description = try? JSONDecoder().decode(Description.self, from: bytes(Self.headerLength, jsonLength))
        else { return nil }

        var offset = Self.headerLength + jsonLength
        var variants: [CachedResponse] = []
        variants.reserveCapacity(description.variants.count)
        for variant in description.variants {
            guard variant.bodyLength >= 0, variant.bodyLength <= data.count - offset else { return nil }
            let body = bytes(offset, variant.bodyLength)
            offset += variant.bodyLength
            variants.append(
                CachedResponse(
                    response: variant.response, body: body, requestTime: variant.requestTime,
                    responseTime: variant.responseTime, varyValues: variant.varyValues))
        }
        // Bytes left over mean the lengths and the bodies disagree; trust neither.
        guard offset == data.count else { return nil }
        self.key = description.key
        self.variants = variants
    }

    /// An entry to encode.
    init(key: CacheKey, variants: [CachedResponse]) {
        self.key = key
        self.variants = variants
    }

    private static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func uint32(_ bytes: Data) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
