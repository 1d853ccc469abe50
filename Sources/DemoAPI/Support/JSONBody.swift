#if DemoAPI
import Foundation
import Hummingbird
import NIOCore

/// Writing JSON responses and reading JSON request bodies the same way in every route.
enum JSONBody {
    static let contentType = "application/json"
    /// The default cap on a JSON request body; larger bodies get 413.
    static let defaultLimit = 1 << 20

    /// Encodes `value` with sorted keys, so equal values give equal bytes and therefore equal ETags.
    static func encode(_ value: some Encodable) throws -> ByteBuffer {
        // A fresh encoder per call: cheap next to the I/O, and no shared mutable formatter state.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ByteBuffer(bytes: try encoder.encode(value))
    }

    /// A response whose body is `value` as JSON.
    static func response(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        response(buffer: try encode(value), status: status, headers: headers)
    }

    /// A response whose body is already-encoded JSON.
    static func response(buffer: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// Reads the request body, at most `limit` bytes, as a JSON object.
    ///
    /// Anything that is not a JSON object (empty, malformed, an array) is a 400; what the fields
    /// hold is for the route to validate, so it can answer 422 with field errors instead.
    static func object(from request: Request, limit: Int = defaultLimit) async throws -> [String: JSONValue] {
        let buffer = try await collect(request, limit: limit)
        guard buffer.readableBytes > 0 else {
            throw APIError(status: .badRequest, code: "malformed_json", message: "The request body is empty; a JSON object was expected.")
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(status: .badRequest, code: "malformed_json", message: "The request body is not valid JSON.")
        }
        guard case .object(let object) = value else {
            throw APIError(status: .badRequest, code: "malformed_json", message: "The request body must be a JSON object.")
        }
        return object
    }

    /// Collects the whole body, refusing with 413 past `limit` bytes (checked up front when the client
    /// declared a `Content-Length`, so a huge upload is refused before it is read).
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.tooLarge(limit: limit)
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(limit: limit)
        }
    }
}

/// Any JSON value, so request bodies can be read without failing on the first wrong type and each
/// bad field can be reported by name.
enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value as an integer, if it is a whole number that fits comfortably in an `Int`.
    var intValue: Int? {
        guard case .number(let number) = self, number.rounded() == number, abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }
}
#endif
