import Foundation

/// Percent-encoding as RFC 3986 defines it, over UTF-8 bytes.
enum PercentEncoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// RFC 3986 `unreserved`: the only bytes never encoded in a query value.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 `pchar` without `%`: unreserved, sub-delims, `:` and `@`.
    static func isSegmentCharacter(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return "!$&'()*+,;=:@".utf8.contains(byte)
    }

    /// WHATWG `application/x-www-form-urlencoded` leaves these as they are (space becomes `+`).
    static func isFormCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
            UInt8(ascii: "."), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// An RFC 8187 `value-chars` encoding (for `filename*=UTF-8''...`): `attr-char` as it is,
    /// every other byte of the UTF-8 as `%XX`.
    static func encodeRFC8187(_ value: String) -> String {
        encode(value, allowing: { isUnreserved($0) || "!#$&+^`|".utf8.contains($0) }, keepingEscapes: false)
    }

    /// An `application/x-www-form-urlencoded` body: `name=value` pairs joined by `&`, spaces as `+`.
    static func formEncode(_ fields: [URLQueryItem]) -> String {
        func encode(_ text: String) -> String {
            PercentEncoding.encode(text, allowing: isFormCharacter, keepingEscapes: false, spaceAsPlus: true)
        }
        return fields.map { "\(encode($0.name))=\(encode($0.value ?? ""))" }.joined(separator: "&")
    }

    /// Encodes one path segment. The dot segments `.` and `..` are escaped too: servers and
    /// proxies resolve them (RFC 3986 §5.2.4), so an identifier of `..` would otherwise climb out
    /// of the endpoint's path.
    static func encodeSegment(_ segment: String, keepingEscapes: Bool) -> String {
        switch segment {
        case ".": return "%2E"
        case "..": return "%2E%2E"
        default: return encode(segment, allowing: isSegmentCharacter, keepingEscapes: keepingEscapes)
        }
    }

    /// Encodes every byte of `value` that `allowed` rejects as `%XX`.
    /// - Parameter keepingEscapes: Leave well-formed `%XX` triplets as they are, so that text
    ///   escaped once is not escaped twice.
    static func encode(
        _ value: String,
        allowing allowed: (UInt8) -> Bool,
        keepingEscapes: Bool,
        spaceAsPlus: Bool = false
    ) -> String {
        // Nearly every path segment and query value needs no escape: it is its own encoding.
        if value.utf8.allSatisfy(allowed) { return value }
        let bytes = Array(value.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if allowed(byte) {
                output.append(byte)
            } else if keepingEscapes, byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
            {
                output.append(contentsOf: bytes[index...(index + 2)])
                index += 2
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "a")...UInt8(ascii: "f"):
            return true
        default:
            return false
        }
    }
}
