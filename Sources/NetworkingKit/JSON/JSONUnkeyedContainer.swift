import Foundation

/// A JSON array read in order: each element is the tape entry after the previous one.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: JSONTapeDecoder
    let pathCount: Int
    let extra: [JSONPathStep]
    private let elements: Int
    private var next: Int
    private(set) var currentIndex = 0

    init(decoder: JSONTapeDecoder, array: Int, count: Int, extra: [JSONPathStep]) throws {
        let document = decoder.document
        let kind = document.kind(array)
        if kind == .null {
            throw DecodingError.valueNotFound(
                [Any].self,
                .init(
                    codingPath: decoder.path(count, extra),
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        }
        if kind != .array {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(
                    codingPath: decoder.path(count, extra),
                    debugDescription: "Expected to decode \([Any].self) but found \(document.describe(array)) instead."))
        }
        self.decoder = decoder
        self.pathCount = count
        self.extra = extra
        self.elements = document.tape.second(at: array)
        self.next = array &+ 2
    }

    var codingPath: [any CodingKey] { decoder.path(pathCount, extra) }
    var count: Int? { elements }
    var isAtEnd: Bool { currentIndex >= elements }

    private var elementPath: [any CodingKey] { decoder.path(pathCount, extra, appending: .index(currentIndex)) }

    /// The next element, or the error `JSONDecoder` throws at the end.
    @inline(__always)
    private func element(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard currentIndex < elements else {
            throw DecodingError.valueNotFound(type, .init(codingPath: elementPath, debugDescription: message))
        }
        return next
    }

    private mutating func advance() {
        if currentIndex < elements { next = decoder.document.tape.next(after: next) }
        currentIndex &+= 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.document.kind(try element(Never.self)) == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.bool(try element(type), elementPath)
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.string(try element(type), elementPath)
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = try decoder.integer(try element(type), type, elementPath)
        advance()
        return value
    }

    private mutating func floatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        let value = try decoder.floatingPoint(try element(type), type, elementPath)
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unwrap(try element(type), as: type, count: pathCount, extra: extra, step: .index(currentIndex))
        advance()
        return value
    }

    // `JSONDecoder` moves past the end too when asked for an optional there.
    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        guard let value = present() else { return skip() }
        return finish(try decoder.bool(value, elementPath))
    }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        guard let value = present() else { return skip() }
        return finish(try decoder.string(value, elementPath))
    }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        guard let value = present() else { return skip() }
        return finish(try decoder.floatingPoint(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        guard let value = present() else { return skip() }
        return finish(try decoder.floatingPoint(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
        guard let value = present() else { return skip() }
        return finish(try decoder.integer(value, type, elementPath))
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard let value = present() else { return skip() }
        return finish(try decoder.unwrap(value, as: type, count: pathCount, extra: extra, step: .index(currentIndex)))
    }

    /// The next element unless the container is at its end or the element is null.
    private func present() -> Int? {
        currentIndex < elements && decoder.document.kind(next) != .null ? next : nil
    }

    private mutating func skip<T>() -> T? {
        advance()
        return nil
    }

    private mutating func finish<T>(_ value: T) -> T {
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try element(KeyedDecodingContainer<NestedKey>.self)
        let container = try JSONKeyedContainer<NestedKey>(
            decoder: decoder, object: value, count: pathCount, extra: extra + [.index(currentIndex)])
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try element((any UnkeyedDecodingContainer).self)
        let container = try JSONUnkeyedContainer(decoder: decoder, array: value, count: pathCount, extra: extra + [.index(currentIndex)])
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try element((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let decoder = decoder.detached(at: value, path: elementPath)
        advance()
        return decoder
    }
}
