import Foundation
import NetworkingKit
import Testing

/// Decodes the same bytes with `JSONDecoder` and with ``FastJSONDecoder`` set up the same way,
/// and describes each outcome so that two outcomes are equal exactly when the values are equal
/// or the errors are the same case, at the same coding path, with the same description.
enum DecoderComparison {
    /// One decoder's outcome, in words.
    static func outcome<T: Decodable>(
        _ type: T.Type, _ data: Data, _ decode: (T.Type, Data) throws -> T, describe: (T) -> String
    ) -> String {
        do {
            return "value " + describe(try decode(type, data))
        } catch let error as DecodingError {
            return "error " + describeError(error)
        } catch {
            return "thrown \(error)"
        }
    }

    static func describeError(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }
                .joined(separator: "/")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "typeMismatch(\(type)) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "valueNotFound(\(type)) at \(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "keyNotFound(\(key.stringValue)) at \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "dataCorrupted at \(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Both outcomes for `data` decoded as `T` by `foundation` and by a ``FastJSONDecoder``
    /// matching it.
    static func both<T: Decodable>(
        _ type: T.Type, _ data: Data, foundation: JSONDecoder = JSONDecoder(), describe: (T) -> String = { "\($0)" }
    ) -> (foundation: String, fast: String) {
        let fast = FastJSONDecoder(matching: foundation)
        return (
            outcome(type, data, { try foundation.decode($0, from: $1) }, describe: describe),
            outcome(type, data, { try fast.decode($0, from: $1) }, describe: describe)
        )
    }

    /// Expects the same outcome from both decoders; returns whether it was the same.
    @discardableResult
    static func expectSame<T: Decodable>(
        _ type: T.Type, _ data: Data, foundation: JSONDecoder = JSONDecoder(), describe: (T) -> String = { "\($0)" },
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let (expected, actual) = both(type, data, foundation: foundation, describe: describe)
        #expect(
            actual == expected, "\(T.self) from \(printable(data))", sourceLocation: sourceLocation)
        return actual == expected
    }

    /// The bytes as a test log shows them: text when it is UTF-8, hex otherwise, cut at 300.
    static func printable(_ data: Data) -> String {
        let shown = data.prefix(300)
        if let text = String(data: shown, encoding: .utf8) { return "'\(text)'" + (data.count > 300 ? "…" : "") }
        return shown.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    /// Decoders set up as `JSONDecoder` can be: each key strategy, with the default others.
    static func keyStrategies() -> [JSONDecoder] {
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let custom = JSONDecoder()
        custom.keyDecodingStrategy = .custom { path in
            let last = path.last!
            return AnyCodingKey(stringValue: "k" + last.stringValue.uppercased())
        }
        return [JSONDecoder(), snake, custom]
    }
}

/// A coding key made from any string or integer.
struct AnyCodingKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Any JSON value, decoded by asking the decoder what it holds the way generic code does: a keyed
/// container, else an unkeyed one, else each scalar type in turn. Errors a probe catches are part
/// of what is compared (a decoder that throws where the other does not reads a different value).
indirect enum AnyJSON: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    /// The bit pattern, so that NaN and -0 compare as themselves.
    case double(UInt64)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: AnyJSON] = [:]
            // Sorted: `JSONDecoder` lists keys in a dictionary's order, and the first error wins.
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members[key.stringValue] = try container.decode(AnyJSON.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [AnyJSON] = []
            while !container.isAtEnd { elements.append(try container.decode(AnyJSON.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .uint(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value.bitPattern)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "i\(value)"
        case .uint(let value): "u\(value)"
        case .double(let bits): "d\(Double(bitPattern: bits))[\(bits)]"
        case .string(let value): value.debugDescription
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}
