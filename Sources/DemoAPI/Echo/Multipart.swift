#if DemoAPI
import Foundation

/// One part of a `multipart/form-data` body as `/echo` reports it.
struct MultipartPart: Encodable, Sendable, Equatable {
    var name: String
    var filename: String?
    var contentType: String?
    var size: Int
    /// The content as UTF-8 text, when it is valid UTF-8.
    var text: String?

    private enum CodingKeys: String, CodingKey {
        case name, filename, size, text
        case contentType = "content_type"
    }
}

/// A small `multipart/form-data` reader (RFC 7578), so `/echo` can show what a client's multipart
/// encoder really produced, part by part.
enum Multipart {
    struct MalformedBody: Error, Equatable {
        var reason: String
    }

    /// The `boundary` parameter of a `multipart/form-data` content type; `nil` for other types.
    static func boundary(contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingWhitespace }
        guard let type = parameters.first, type.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                // RFC 2046 §5.1.1: 1 to 70 characters; a longer one would make the search costly.
                let boundary = pair[1].unquoted
                return (1...70).contains(boundary.count) ? boundary : nil
            }
        }
        return nil
    }

    /// Splits `body` at `boundary` and reads each part's headers.
    static func parse(_ body: [UInt8], boundary: String) throws(MalformedBody) -> [MultipartPart] {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        guard var cursor = body.firstRange(of: delimiter, from: 0)?.upperBound else {
            throw MalformedBody(reason: "the boundary does not occur in the body")
        }
        var parts: [MultipartPart] = []
        while true {
            // After a delimiter: "--" ends the body, CRLF starts a part.
            if body.hasBytes([45, 45], at: cursor) { return parts }
            guard body.hasBytes(crlf, at: cursor) else {
                throw MalformedBody(reason: "a boundary is not followed by CRLF")
            }
            let headerStart = cursor + 2
            guard let headerEnd = body.firstRange(of: crlf + crlf, from: headerStart) else {
                throw MalformedBody(reason: "a part's headers do not end")
            }
            guard let next = body.firstRange(of: crlf + delimiter, from: headerEnd.upperBound) else {
                throw MalformedBody(reason: "the closing boundary is missing")
            }
            let headers = String(decoding: body[headerStart..<headerEnd.lowerBound], as: UTF8.self)
            let content = body[headerEnd.upperBound..<next.lowerBound]
            parts.append(part(headers: headers, content: content))
            cursor = next.upperBound
        }
    }

    private static func part(headers: String, content: ArraySlice<UInt8>) -> MultipartPart {
        var part = MultipartPart(name: "", size: content.count, text: String(bytes: content, encoding: .utf8))
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let value = pair[1].trimmingWhitespace
            switch pair[0].trimmingWhitespace.lowercased() {
            case "content-type":
                part.contentType = value
            case "content-disposition":
                for parameter in value.split(separator: ";").dropFirst() {
                    let field = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
                    guard field.count == 2 else { continue }
                    switch field[0].lowercased() {
                    case "name": part.name = field[1].unquoted
                    case "filename": part.filename = field[1].unquoted
                    default: break
                    }
                }
            default:
                break
            }
        }
        return part
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    fileprivate var unquoted: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : String(self)
    }
}

extension [UInt8] {
    fileprivate func hasBytes(_ bytes: [UInt8], at index: Int) -> Bool {
        index + bytes.count <= count && self[index..<index + bytes.count].elementsEqual(bytes)
    }

    /// The first occurrence of `needle` at or after `start`; a plain scan is enough for echo-sized bodies.
    fileprivate func firstRange(of needle: [UInt8], from start: Int) -> Range<Int>? {
        guard let first = needle.first, needle.count <= count else { return nil }
        var index = start
        while index + needle.count <= count {
            if self[index] == first, hasBytes(needle, at: index) {
                return index..<index + needle.count
            }
            index += 1
        }
        return nil
    }
}
#endif
