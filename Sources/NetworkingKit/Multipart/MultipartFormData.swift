public import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, bytes, and files streamed from disk.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Luxo Jr.", name: "title")
/// form.append(Data(#"{"rating":5}"#.utf8), name: "meta", contentType: "application/json")
/// try form.append(fileAt: posterURL, name: "poster")   // read in chunks while it is sent
/// let receipt = try await client.send(Request<UploadReceipt>(path: "/upload/multipart", method: .post, body: .multipart(form)))
/// ```
///
/// - Files are never read whole: each is read in chunks while the body is sent, and opened
///   again when the body is sent again (a retry, a `307` redirect, a replay after a token refresh).
/// - When every part's size is known (text, data and files always are), the body has an exact
///   `Content-Length`; a part streamed from an ``HTTPBody`` of unknown length makes it chunked.
/// - Names and filenames are escaped as browsers do (`"` as `%22`, CR and LF as `%0D` and
///   `%0A`); a filename that is not ASCII is also sent as `filename*` (RFC 8187), which servers
///   that know it prefer, while the plain `filename` carries the same name in UTF-8 for the others.
/// - A file's content type comes from its extension unless one is given.
/// - The boundary is random (128 bits) and checked against every part held in memory; a
///   collision there picks another one.
public struct MultipartFormData: Sendable {
    private enum Content: Sendable {
        case data(Data)
        case file(URL, length: Int64)
        case stream(HTTPBody)
    }

    private struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Content
    }

    private var parts: [Part] = []
    private var fixedBoundary: String?
    private var randomBoundary: String

    /// Creates an empty form.
    /// - Parameter boundary: The boundary to use; random when `nil` (the right choice unless a
    ///   test needs a fixed body). A boundary given here is used as it is, and building the body
    ///   fails if a part contains it.
    public init(boundary: String? = nil) {
        self.fixedBoundary = boundary
        self.randomBoundary = Self.makeBoundary()
    }

    /// The boundary between parts.
    public var boundary: String { fixedBoundary ?? randomBoundary }

    /// The `Content-Type` of the body, with its boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The number of parts.
    public var count: Int { parts.count }

    /// Adds a text field, sent as UTF-8 without a content type (as a browser sends a form field).
    public mutating func append(_ value: String, name: String) {
        add(Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Adds bytes held in memory, as a field or (with a `filename`) as a file.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The field name.
    ///   - filename: The filename the server sees, if the part is a file.
    ///   - contentType: The part's content type; `application/octet-stream` for a file when `nil`.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : MediaType.octetStream)
        add(Part(name: name, filename: filename, contentType: type, content: .data(data)))
    }

    /// Adds a file, read from disk in chunks each time the body is sent.
    ///
    /// The file is checked now: a missing or unreadable file fails here, before anything is sent.
    /// - Parameters:
    ///   - url: The file.
    ///   - name: The field name.
    ///   - filename: The filename the server sees; the file's own name when `nil`.
    ///   - contentType: The part's content type; from the file's extension when `nil`.
    /// - Throws: ``NetworkError/fileFailed(_:)``.
    public mutating func append(fileAt url: URL, name: String, filename: String? = nil, contentType: String? = nil) throws {
        let length = try FileChunks.checkedLength(of: url)
        // The name and type are the path's as the app wrote it; the bytes, a link's target's.
        add(
            Part(
                name: name, filename: filename ?? url.lastPathComponent,
                contentType: contentType ?? MediaType.forFile(url), content: .file(FileChunks.target(of: url), length: length)))
    }

    /// Adds a part whose bytes come from a body, streamed while the form is sent. A body of
    /// unknown length makes the whole form chunked; a one-shot body makes it one-shot.
    public mutating func append(_ body: HTTPBody, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : MediaType.octetStream)
        add(Part(name: name, filename: filename, contentType: type, content: .stream(body)))
    }

    /// Adds a part; a random boundary that it contains is replaced, so ``boundary`` and
    /// ``contentType`` always describe the body that ``makeBody()`` builds.
    private mutating func add(_ part: Part) {
        parts.append(part)
        // Only the new part can collide with a boundary the others were checked against; a new
        // boundary is checked against them all.
        guard fixedBoundary == nil, Self.contains(part, boundary: boundary) else { return }
        repeat {
            randomBoundary = Self.makeBoundary()
        } while boundaryConflict() != nil
    }

    /// The body, ready to send: its length is exact when every part's is known.
    /// - Throws: ``NetworkError/encodingFailed(reason:underlying:)`` for a content type or a
    ///   fixed boundary with a control character (CR, LF, NUL...), or a fixed boundary that a
    ///   part contains.
    public func makeBody() throws -> HTTPBody {
        if let byte = ControlCharacters.first(in: boundary) {
            throw NetworkError.encodingFailed(
                reason: "the multipart boundary contains \(ControlCharacters.name(of: byte))", underlying: nil)
        }
        if let conflict = boundaryConflict() {
            throw NetworkError.encodingFailed(reason: "the multipart boundary occurs in \(conflict)", underlying: nil)
        }
        var segments: [MultipartSegment] = []
        for part in parts {
            segments.append(.bytes(try header(for: part)))
            switch part.content {
            case .data(let data): segments.append(.bytes(data))
            case .file(let url, let length): segments.append(.file(url, length: length))
            case .stream(let body): segments.append(.body(body))
            }
            segments.append(.bytes(Data("\r\n".utf8)))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        return MultipartSegment.body(of: segments)
    }

    /// The delimiter and headers that open a part.
    private func header(for part: Part) throws -> Data {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let filename = part.filename {
            text += "; filename=\"\(Self.escape(filename))\""
            if !filename.allSatisfy(\.isASCII) {
                text += "; filename*=UTF-8''\(PercentEncoding.encodeRFC8187(filename))"
            }
        }
        text += "\r\n"
        if let contentType = part.contentType {
            // Bytes, not Characters: Swift reads "\r\n" as one Character, equal to neither "\r" nor "\n".
            if let byte = ControlCharacters.first(in: contentType, allowingTab: true) {
                throw NetworkError.encodingFailed(
                    reason: "the content type of multipart part '\(ControlCharacters.printable(part.name))' contains "
                        + ControlCharacters.name(of: byte),
                    underlying: nil)
            }
            text += "Content-Type: \(contentType)\r\n"
        }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// Where the boundary occurs in a part held in memory, if anywhere. Names and filenames
    /// cannot hold a delimiter (one starts a line, and their line breaks are escaped).
    private func boundaryConflict() -> String? {
        parts.first { Self.contains($0, boundary: boundary) }.map { "the content of part '\($0.name)'" }
    }

    /// Whether a part held in memory contains the delimiter of `boundary`.
    private static func contains(_ part: Part, boundary: String) -> Bool {
        guard case .data(let data) = part.content else { return false }
        return data.range(of: Data("--\(boundary)".utf8)) != nil
    }

    /// `"` as `%22`, CR as `%0D`, LF as `%0A`: the escaping of the HTML standard's form encoding.
    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func makeBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return "NetworkingKit-" + String(repeating: "0", count: 16 - high.count) + high
            + String(repeating: "0", count: 16 - low.count) + low
    }
}
