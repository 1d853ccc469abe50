import Foundation

/// A JSON object read by key. Keys are found where they lie: the member after the last one found
/// is tried first (types decode their keys in the order servers send them), then the members in
/// order; objects of more than ``JSONKeyHint/indexedMembers`` members are indexed once instead.
/// The first of two equal keys wins, as in `JSONDecoder`.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTapeDecoder
    let object: Int
    let pathCount: Int
    private let slot: Int
    /// What few containers have, in one optional reference: the box `KeyedDecodingContainer`
    /// keeps this struct in copies it for every call, and each reference is a retain.
    private let rare: Rare?

    private final class Rare: Sendable {
        /// The steps of a nested container's path that are not on the decoder's path.
        let extra: [JSONPathStep]
        /// The keys as a `.custom` key strategy converts them, first occurrence first.
        let customKeys: [String: Int]?

        init(extra: [JSONPathStep], customKeys: [String: Int]?) {
            self.extra = extra
            self.customKeys = customKeys
        }
    }

    var extra: [JSONPathStep] { rare?.extra ?? [] }
    private var customKeys: [String: Int]? { rare?.customKeys }

    init(decoder: JSONTapeDecoder, object: Int, count: Int, extra: [JSONPathStep]) throws {
        let document = decoder.document
        let kind = document.kind(object)
        if kind == .null {
            throw DecodingError.valueNotFound(
                [String: Any].self,
                .init(
                    codingPath: decoder.path(count, extra),
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        }
        if kind != .object {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: decoder.path(count, extra),
                    debugDescription: "Expected to decode \([String: Any].self) but found \(document.describe(object)) instead."))
        }
        self.decoder = decoder
        self.object = object
        self.pathCount = count
        // `JSONDecoder` reads every key when it makes a keyed container: a key that is not valid
        // UTF-8 or holds a bad escape fails here, whichever keys the type asks for.
        if document.tape.second(at: object) & JSONTape.unusualKeys != 0 {
            try decoder.forEachMember(of: object) { key, _ in
                if document.kind(key) != .asciiString { _ = try document.string(key) }
            }
        }
        var customKeys: [String: Int]?
        if case .custom(let convert) = decoder.options.key {
            var keys: [String: Int] = [:]
            let base = decoder.path(count, extra)
            try decoder.forEachMember(of: object) { key, value in
                let name = try document.string(key)
                let converted = convert(base + [JSONPathKey(stringValue: name)]).stringValue
                if keys[converted] == nil { keys[converted] = value }
            }
            customKeys = keys
        }
        rare = extra.isEmpty && customKeys == nil ? nil : Rare(extra: extra, customKeys: customKeys)
        slot = count &+ extra.count
        decoder.startHint(slot: slot, object: object)
    }

    var codingPath: [any CodingKey] { decoder.path(pathCount, extra) }

    var allKeys: [Key] {
        if let customKeys {
            // In document order, as the converted keys' first occurrences.
            return customKeys.sorted { $0.value < $1.value }.compactMap { Key(stringValue: $0.key) }
        }
        var seen: Set<String> = []
        var keys: [Key] = []
        decoder.forEachMember(of: object) { key, _ in
            guard let name = try? decoder.convertedKey(key) else { return }
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    private func find(_ key: Key) throws -> Int? {
        if let customKeys { return customKeys[key.stringValue] }
        return try decoder.find(key.stringValue, in: object, slot: slot)
    }

    private func value(_ key: Key) throws -> Int {
        guard let value = try find(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    /// The value for `key` unless it is absent or null.
    private func present(_ key: Key) throws -> Int? {
        guard let value = try find(key), decoder.document.kind(value) != .null else { return nil }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] {
        decoder.path(pathCount, extra, appending: .key(key))
    }

    func contains(_ key: Key) -> Bool { (try? find(key)) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.document.kind(try value(key)) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(try value(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(try value(key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.floatingPoint(try value(key), type, path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.floatingPoint(try value(key), type, path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(try value(key), type, path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(try value(key), type, path(key)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decoder.integer(try value(key), type, path(key)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decoder.integer(try value(key), type, path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(try value(key), as: type, count: pathCount, extra: extra, step: .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = try present(key) else { return nil }
        return try decoder.bool(value, path(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = try present(key) else { return nil }
        return try decoder.string(value, path(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try floatingPointIfPresent(key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try floatingPointIfPresent(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = try present(key) else { return nil }
        return try decoder.unwrap(value, as: type, count: pathCount, extra: extra, step: .key(key))
    }

    private func integerIfPresent<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        guard let value = try present(key) else { return nil }
        return try decoder.integer(value, T.self, path(key))
    }

    private func floatingPointIfPresent<T: BinaryFloatingPoint>(_ key: Key) throws -> T? {
        guard let value = try present(key) else { return nil }
        return try decoder.floatingPoint(value, T.self, path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(
            try JSONKeyedContainer<NestedKey>(decoder: decoder, object: try value(key), count: pathCount, extra: extra + [.key(key)]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONUnkeyedContainer(decoder: decoder, array: try value(key), count: pathCount, extra: extra + [.key(key)])
    }

    func superDecoder() throws -> any Decoder {
        let value = (try? decoder.find(JSONPathKey.super.stringValue, in: object, slot: slot, custom: customKeys)) ?? nil
        return decoder.detached(at: value ?? -1, path: decoder.path(pathCount, extra, appending: .key(JSONPathKey.super)))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let value = (try? find(key)) ?? nil
        return decoder.detached(at: value ?? -1, path: path(key))
    }
}

extension JSONTapeDecoder {
    /// Calls `body` with each member's key and value tape indexes, in document order.
    @inline(__always)
    func forEachMember(of object: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) rethrows {
        let tape = document.tape
        var member = object &+ 2
        let end = tape.payload(at: object)
        while member < end {
            let value = member &+ 2
            try body(member, value)
            member = tape.next(after: value)
        }
    }

    /// A decoder of its own, for `superDecoder`: it may be kept and used after this one moves on.
    func detached(at value: Int, path: [any CodingKey]) -> JSONTapeDecoder {
        document.shared = true
        return JSONTapeDecoder(document: document, options: options, current: value, path: path.map { .key($0) })
    }

    /// The key at `key` as the key strategy converts it (`.custom` is applied by the container).
    func convertedKey(_ key: Int) throws -> String {
        let name = try document.string(key)
        if options.snakeCase { return JSONKeyMatching.convertFromSnakeCase(name) }
        return name
    }

    func find(_ name: String, in object: Int, slot: Int, custom: [String: Int]?) throws -> Int? {
        if let custom { return custom[name] }
        return try find(name, in: object, slot: slot)
    }

    /// The value tape index of the first member whose key, converted by the key strategy, equals
    /// `name`; `nil` if there is none.
    func find(_ name: String, in object: Int, slot: Int) throws -> Int? {
        let tape = document.tape
        let members = tape.second(at: object) & JSONTape.countMask
        if members == 0 { return nil }
        if members > JSONKeyHint.indexedMembers { return try index(of: object)[name] }
        var name = name
        return try name.withUTF8 { target -> Int? in
            let fingerprint = JSONKeyHint.fingerprint(target)
            var hint = hint(slot)
            if hint.object != object { hint = JSONKeyHint(object: object, ordinal: 0, member: object &+ 2, seen: 0) }
            let fresh = hint.seen & fingerprint == 0
            if hint.ordinal < members, fresh, quickMatch(hint.member, target) == true {
                let value = hint.member &+ 2
                setHint(
                    slot,
                    JSONKeyHint(object: object, ordinal: hint.ordinal &+ 1, member: tape.next(after: value), seen: hint.seen | fingerprint))
                return value
            }
            var high: UInt8 = 0
            for byte in target { high |= byte }
            guard high < 0x80 else { return try search(String(decoding: target, as: UTF8.self), in: object) }
            var member = object &+ 2
            var ordinal = 0
            while ordinal < members {
                let value = member &+ 2
                if try quickMatch(member, target) ?? slowMatch(member, target) {
                    // Found from the first member on: the first occurrence, whatever `seen` says.
                    if ordinal == hint.ordinal {
                        setHint(
                            slot,
                            JSONKeyHint(
                                object: object, ordinal: ordinal &+ 1, member: tape.next(after: value), seen: hint.seen | fingerprint))
                    }
                    return value
                }
                member = tape.next(after: value)
                ordinal &+= 1
            }
            return nil
        }
    }

    /// Whether the key at `key` matches `target` under the key strategy, decided from bytes when
    /// the key is plain ASCII (`true` is final; `false` is final only for an ASCII target); `nil`
    /// when only strings can tell.
    @inline(__always)
    private func quickMatch(_ key: Int, _ target: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard document.tape.kind(at: key) == .asciiString else { return nil }
        let raw = document.raw(key)
        if options.snakeCase { return JSONKeyMatching.snakeCaseMatches(raw, target) }
        return JSONKeyMatching.equal(raw, target)
    }

    private func slowMatch(_ key: Int, _ target: UnsafeBufferPointer<UInt8>) throws -> Bool {
        try convertedKey(key) == String(decoding: target, as: UTF8.self)
    }

    /// The slow search, with `String` equality (canonical equivalence, as a dictionary compares).
    private func search(_ name: String, in object: Int) throws -> Int? {
        var found: Int?
        try forEachMember(of: object) { key, value in
            if found == nil, try convertedKey(key) == name { found = value }
        }
        return found
    }

    private func index(of object: Int) throws -> [String: Int] {
        if let index = indexes[object] { return index }
        var index: [String: Int] = [:]
        index.reserveCapacity(document.tape.second(at: object) & JSONTape.countMask)
        try forEachMember(of: object) { key, value in
            let name = try convertedKey(key)
            if index[name] == nil { index[name] = value }
        }
        indexes[object] = index
        return index
    }
}
