import Foundation

/// The `Decoder` that ``FastJSONDecoder`` hands to `init(from:)`: one instance per document,
/// moved from value to value (its ``current`` tape index and its coding path are set and restored
/// around each nested decode) rather than one decoder allocated per value.
final class JSONTapeDecoder {
    let document: JSONDocument
    let options: FastJSONDecoder.Options
    /// What changes while decoding, behind a pointer: a class's stored `var`s cost a dynamic
    /// exclusivity check on every access, and these are touched for every value.
    private let state: UnsafeMutablePointer<State>

    struct State {
        /// The tape index of the value a single-value container or a new container reads.
        var current: Int
        /// The coding path of `current`: containers remember how much of it is theirs.
        var path: [JSONPathStep]
        /// Where each keyed container expects its next key (see ``JSONKeyHint``), by depth.
        var hints: [JSONKeyHint] = []
        /// Objects too large to search member by member: their keys (converted by the key
        /// strategy), first occurrence first, by tape index.
        var indexes: [Int: [String: Int]] = [:]
        /// Set when a value must be read by `JSONDecoder` itself (see ``JSONNeedsFoundation``).
        var needsFoundation = false
    }

    init(document: JSONDocument, options: FastJSONDecoder.Options, current: Int, path: [JSONPathStep]) {
        self.document = document
        self.options = options
        state = .allocate(capacity: 1)
        state.initialize(to: State(current: current, path: path))
        // Room for the usual depth at once, rather than growing a step at a time.
        state.pointee.path.reserveCapacity(8)
        state.pointee.hints.reserveCapacity(8)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var current: Int {
        @inline(__always) get { state.pointee.current }
        @inline(__always) set { state.pointee.current = newValue }
    }

    var path: [JSONPathStep] { state.pointee.path }

    /// The number of steps in the path (without copying the array).
    var depth: Int {
        @inline(__always) get { state.pointee.path.count }
    }

    @inline(__always)
    func hint(_ slot: Int) -> JSONKeyHint { state.pointee.hints[slot] }

    @inline(__always)
    func setHint(_ slot: Int, _ hint: JSONKeyHint) { state.pointee.hints[slot] = hint }

    func startHint(slot: Int, object: Int) {
        let fresh = JSONKeyHint(object: object, ordinal: 0, member: object &+ 2, seen: 0)
        if slot < state.pointee.hints.count {
            state.pointee.hints[slot] = fresh
        } else {
            while state.pointee.hints.count < slot {
                state.pointee.hints.append(JSONKeyHint(object: -1, ordinal: 0, member: 0, seen: 0))
            }
            state.pointee.hints.append(fresh)
        }
    }

    var indexes: [Int: [String: Int]] {
        @inline(__always) get { state.pointee.indexes }
        @inline(__always) _modify { yield &state.pointee.indexes }
    }

    var needsFoundation: Bool {
        @inline(__always) get { state.pointee.needsFoundation }
        @inline(__always) set { state.pointee.needsFoundation = newValue }
    }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    /// Makes `path` the given prefix followed by `extra` (nested containers carry their own steps).
    @inline(__always)
    func restorePath(_ count: Int, _ extra: [JSONPathStep]) {
        if _slowPath(depth != count || !extra.isEmpty) {
            if depth > count { state.pointee.path.removeSubrange(count...) }
            state.pointee.path.append(contentsOf: extra)
        }
    }

    func path(_ count: Int, _ extra: [JSONPathStep], appending step: JSONPathStep? = nil) -> [any CodingKey] {
        var keys = path.prefix(count).map(\.codingKey)
        keys += extra.map(\.codingKey)
        if let step { keys.append(step.codingKey) }
        return keys
    }

    // MARK: Reading a value

    func notNull(_ value: Int, _ type: Any.Type, _ path: @autoclosure () -> [any CodingKey]) throws {
        if document.kind(value) == .null {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path(), debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
    }

    func mismatch(_ type: Any.Type, _ value: Int, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(document.describe(value)) instead."))
    }

    func bool(_ value: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        let kind = document.kind(value)
        if kind == .true { return true }
        if kind == .false { return false }
        throw mismatch(Bool.self, value, path())
    }

    func string(_ value: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        let kind = document.kind(value)
        if kind.isString { return try document.string(value) }
        if kind == .null {
            throw DecodingError.valueNotFound(
                String.self, .init(codingPath: path(), debugDescription: "Cannot get value of type String -- found null value instead"))
        }
        throw mismatch(String.self, value, path())
    }

    func integer<T: FixedWidthInteger>(_ value: Int, _ type: T.Type, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        let kind = document.kind(value)
        guard kind == .integer || kind == .number else {
            try notNull(value, type, path())
            throw mismatch(type, value, path())
        }
        do {
            return try JSONScalars.integer(
                document.bytes, offset: document.tape.second(at: value), length: document.tape.payload(at: value),
                plain: kind == .integer, as: type)
        } catch let error as JSONNeedsFoundation {
            needsFoundation = true
            throw error
        }
    }

    func floatingPoint<T: BinaryFloatingPoint>(_ value: Int, _ type: T.Type, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        let kind = document.kind(value)
        if kind.isNumber {
            return try JSONScalars.floatingPoint(
                document.bytes, offset: document.tape.second(at: value), length: document.tape.payload(at: value),
                plain: kind == .integer, as: type)
        }
        try notNull(value, type, path())
        if kind == .asciiString || kind == .plainString,
            case .convertFromString(let infinity, let negativeInfinity, let nan) = options.nonConformingFloat
        {
            let raw = document.raw(value)
            if Self.same(raw, infinity) { return .infinity }
            if Self.same(raw, negativeInfinity) { return -.infinity }
            if Self.same(raw, nan) { return .nan }
        }
        throw mismatch(type, value, path())
    }

    private static func same(_ raw: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { JSONKeyMatching.equal(raw, $0) }
    }

    /// Decodes the value at `value` as `T`, with `step` appended to the coding path (restored to
    /// `count` + `extra` first): the types `JSONDecoder` treats itself first, then `init(from:)`.
    func unwrap<T: Decodable>(
        _ value: Int, as type: T.Type, count: Int, extra: [JSONPathStep], step: JSONPathStep?
    ) throws -> T {
        if T.self == Date.self { return try date(value, count, extra, step) as! T }
        if T.self == Data.self { return try data(value, count, extra, step) as! T }
        if T.self == URL.self {
            try notNull(value, URL.self, path(count, extra, appending: step))
            let text = try string(value, path(count, extra, appending: step))
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: self.path(count, extra, appending: step), debugDescription: "Invalid URL string."))
            }
            return url as! T
        }
        if T.self == Decimal.self { return try decimal(value, count, extra, step) as! T }
        if options.convertsKeys, JSONTypeCheck.isDictionary(T.self), let dictionary = T.self as? any JSONStringKeyedDictionary.Type {
            return try stringKeyedDictionary(dictionary, value, count, extra, step) as! T
        }
        return try within(value, count, extra, step) { try T(from: self) }
    }

    /// Runs `body` with ``current`` at `value` and the path at `count` + `extra` + `step`.
    @inline(__always)
    func within<R>(_ value: Int, _ count: Int, _ extra: [JSONPathStep], _ step: JSONPathStep?, _ body: () throws -> R) rethrows -> R {
        restorePath(count, extra)
        let base = depth
        if let step { state.pointee.path.append(step) }
        let saved = current
        current = value
        defer {
            current = saved
            // Back to where it was, whatever `body` left (a container used out of order may have
            // shortened the path: nothing to remove then, rather than a crash).
            let left = depth &- base
            if left == 1 {
                state.pointee.path.removeLast()
            } else if left > 1 {
                state.pointee.path.removeSubrange(base...)
            }
        }
        return try body()
    }

    private func date(_ value: Int, _ count: Int, _ extra: [JSONPathStep], _ step: JSONPathStep?) throws -> Date {
        try notNull(value, Date.self, path(count, extra, appending: step))
        switch options.date {
        case .deferredToDate:
            return try within(value, count, extra, step) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try floatingPoint(value, Double.self, path(count, extra, appending: step)))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try floatingPoint(value, Double.self, path(count, extra, appending: step)) / 1000)
        case .iso8601:
            if document.kind(value) == .asciiString {
                let raw = document.raw(value)
                #if canImport(Darwin)
                let fast = !ISO8601Timestamp.hasFraction(raw)
                #else
                let fast = true
                #endif
                if fast, let date = ISO8601Timestamp.common(raw) { return date }
            }
            let text = try string(value, path(count, extra, appending: step))
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                // `JSONDecoder` reports the path of the decoder here, not the value's.
                restorePath(count, extra)
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        case .custom(let closure):
            return try within(value, count, extra, step) { try closure(self) }
        case .iso8601WithOptionalFractionalSeconds:
            if document.kind(value) == .asciiString, let date = ISO8601Timestamp.common(document.raw(value)) { return date }
            let text = try string(value, path(count, extra, appending: step))
            if let date = ISO8601Timestamp.parse(text) { return date }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path(count, extra, appending: step), debugDescription: "'\(text)' is not an ISO 8601 date"))
        }
    }

    private func data(_ value: Int, _ count: Int, _ extra: [JSONPathStep], _ step: JSONPathStep?) throws -> Data {
        try notNull(value, Data.self, path(count, extra, appending: step))
        switch options.data {
        case .deferredToData:
            return try within(value, count, extra, step) { try Data(from: self) }
        case .base64:
            guard document.kind(value).isString else { throw mismatch(String.self, value, path(count, extra, appending: step)) }
            guard let data = Data(base64Encoded: try document.string(value)) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path(count, extra, appending: step), debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let closure):
            return try within(value, count, extra, step) { try closure(self) }
        }
    }

    private func decimal(_ value: Int, _ count: Int, _ extra: [JSONPathStep], _ step: JSONPathStep?) throws -> Decimal {
        try notNull(value, Decimal.self, path(count, extra, appending: step))
        let kind = document.kind(value)
        guard kind == .integer || kind == .number else {
            throw DecodingError.typeMismatch(Decimal.self, .init(codingPath: path(count, extra, appending: step), debugDescription: ""))
        }
        return try JSONScalars.decimal(
            document.bytes, offset: document.tape.second(at: value), length: document.tape.payload(at: value),
            plain: kind == .integer)
    }

    /// `[String: V]` under a key strategy: `JSONDecoder` keeps such a dictionary's keys as they are.
    private func stringKeyedDictionary(
        _ type: any JSONStringKeyedDictionary.Type, _ value: Int, _ count: Int, _ extra: [JSONPathStep], _ step: JSONPathStep?
    ) throws -> Any {
        try notNull(value, [String: Any].self, path(count, extra, appending: step))
        guard document.kind(value) == .object else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: path(count, extra, appending: step),
                    debugDescription: "Expected to decode \([String: Any].self) but found \(document.describe(value)) instead."))
        }
        restorePath(count, extra)
        let outer = depth
        if let step { state.pointee.path.append(step) }
        defer { if depth > outer { state.pointee.path.removeSubrange(outer...) } }
        let base = depth
        var result: [String: Any] = [:]
        result.reserveCapacity(document.tape.second(at: value) & JSONTape.countMask)
        var member = value &+ 2
        let end = document.tape.payload(at: value)
        while member < end {
            let key = try document.string(member)
            let element = member &+ 2
            let decoded = try type.decodeElement(self, element, count: base, step: .key(JSONPathKey(stringValue: key)))
            if result[key] == nil { result[key] = decoded }
            member = document.tape.next(after: element)
        }
        return type.make(result)
    }
}

/// Recognises a `Dictionary` from its type metadata: a cast to a protocol costs the runtime a
/// search of every conformance when it fails (tens of thousands of instructions, uncached), and
/// every nested value would pay it. Only dictionaries go on to the cast.
enum JSONTypeCheck {
    /// Struct metadata starts with its kind (0x200) and then its nominal type descriptor, which
    /// every specialization of a generic type shares.
    private static func descriptor(_ type: Any.Type) -> UInt {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x200 else { return 0 }
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
    }

    private static let dictionary = descriptor([String: Int].self)

    static func isDictionary(_ type: Any.Type) -> Bool {
        dictionary != 0 && descriptor(type) == dictionary
    }
}

/// `[String: V]`, recognised so that a key strategy leaves its keys alone (as `JSONDecoder` does).
protocol JSONStringKeyedDictionary {
    static func decodeElement(_ decoder: JSONTapeDecoder, _ value: Int, count: Int, step: JSONPathStep) throws -> Any
    static func make(_ elements: [String: Any]) -> Self
}

extension Dictionary: JSONStringKeyedDictionary where Key == String, Value: Decodable {
    static func decodeElement(_ decoder: JSONTapeDecoder, _ value: Int, count: Int, step: JSONPathStep) throws -> Any {
        try decoder.unwrap(value, as: Value.self, count: count, extra: [], step: step)
    }

    static func make(_ elements: [String: Any]) -> Self {
        elements.mapValues { $0 as! Value }
    }
}

/// The position of a keyed container in its object: the members before `ordinal` were all found,
/// in order, by keys whose fingerprints are in `seen`. A key that is not among them and matches
/// the member at `ordinal` is that key's first occurrence, found without a search.
struct JSONKeyHint {
    var object: Int
    var ordinal: Int
    var member: Int
    var seen: UInt64

    /// Objects with more members than this are indexed once rather than searched per key.
    static let indexedMembers = 32

    /// One bit of 64 for a key's bytes; equal keys have equal bits (a shared bit between
    /// different keys only costs a search).
    @inline(__always)
    static func fingerprint(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = key.count
        guard count > 0 else { return 1 }
        var mix = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        mix ^= UInt64(key[0]) &* 0xBF58_476D_1CE4_E5B9
        mix ^= UInt64(key[count &- 1]) &* 0x94D0_49BB_1331_11EB
        mix ^= UInt64(key[count &>> 1]) &* 0xD6E8_FEB8_6659_FD93
        return 1 &<< (mix &>> 58)
    }
}

extension JSONTapeDecoder: Decoder {
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try JSONKeyedContainer<Key>(decoder: self, object: current, count: depth, extra: []))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try JSONUnkeyedContainer(decoder: self, array: current, count: depth, extra: [])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

extension JSONTapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { document.kind(current) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(current, codingPath) }
    func decode(_ type: String.Type) throws -> String { try string(current, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(current, type, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(current, type, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try integer(current, type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(current, type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(current, type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(current, type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(current, type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(current, type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(current, type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(current, type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(current, type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(current, type, codingPath) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try integer(current, type, codingPath) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(current, type, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(current, as: type, count: depth, extra: [], step: nil)
    }
}
