import Foundation

/// What ``URLQueryEncoder`` builds before it names the parts: a tree of single values, named
/// members and lists. A class, so that containers handed out by an encoder fill it in place.
final class QueryNode {
    enum Content {
        case empty
        case null
        case single(String)
        case keyed([(String, QueryNode)])
        case unkeyed([QueryNode])
    }

    var content = Content.empty

    /// The member named `key`, made if need be; a node of another kind becomes keyed.
    func member(_ key: String) -> QueryNode {
        var members: [(String, QueryNode)] = []
        if case .keyed(let existing) = content {
            if let found = existing.first(where: { $0.0 == key }) { return found.1 }
            members = existing
        }
        let node = QueryNode()
        members.append((key, node))
        content = .keyed(members)
        return node
    }

    /// A new element at the end of the list; a node of another kind becomes a list.
    func appendElement() -> QueryNode {
        var elements: [QueryNode] = []
        if case .unkeyed(let existing) = content { elements = existing }
        let node = QueryNode()
        elements.append(node)
        content = .unkeyed(elements)
        return node
    }

    var count: Int {
        if case .unkeyed(let elements) = content { return elements.count }
        return 0
    }
}

struct QueryKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// The `Encoder` a value encodes itself to, writing into one ``QueryNode``.
struct QueryEncoding: Encoder {
    let node: QueryNode
    let codingPath: [any CodingKey]
    let options: URLQueryEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([]) }
        return KeyedEncodingContainer(Keyed<Key>(encoding: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return Unkeyed(encoding: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(encoding: self)
    }

    /// Writes `value` into `node`: as text when it is a scalar the options name, else by its own
    /// `encode(to:)`.
    func encode(_ value: some Encodable, into node: QueryNode, at path: [any CodingKey]) throws {
        if let text = try options.text(for: value) {
            node.content = .single(text)
        } else {
            try value.encode(to: QueryEncoding(node: node, codingPath: path, options: options))
        }
    }

    func single(_ text: String, into node: QueryNode) {
        node.content = .single(text)
    }

    func number(_ value: Double, at path: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(value) cannot go in a query."))
        }
        return URLQueryEncoder.number(value)
    }

    /// A `Float` as its own shortest text (`0.1`), not as the `Double` it widens to
    /// (`0.10000000149011612`).
    func number(_ value: Float, at path: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(value) cannot go in a query."))
        }
        return value.rounded() == value && abs(value) < 1e7 ? String(Int64(value)) : String(value)
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoding: QueryEncoding
        var codingPath: [any CodingKey] { encoding.codingPath }

        private func member(_ key: Key) -> QueryNode {
            encoding.node.member(encoding.options.name(for: key.stringValue))
        }

        mutating func encodeNil(forKey key: Key) throws { member(key).content = .null }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            encoding.single(try encoding.options.text(for: value) ?? "\(value)", into: member(key))
        }
        mutating func encode(_ value: String, forKey key: Key) throws { encoding.single(value, into: member(key)) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            encoding.single(try encoding.number(value, at: codingPath + [key]), into: member(key))
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            encoding.single(try encoding.number(value, at: codingPath + [key]), into: member(key))
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoding.single("\(value)", into: member(key)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoding.encode(value, into: member(key), at: codingPath + [key])
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            // Leaving out a `nil` property, as the standard encoders do.
            guard let value else { return }
            try encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            QueryEncoding(node: member(key), codingPath: codingPath + [key], options: encoding.options).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            QueryEncoding(node: member(key), codingPath: codingPath + [key], options: encoding.options).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            QueryEncoding(node: encoding.node.member("super"), codingPath: codingPath + [QueryKey("super")], options: encoding.options)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            QueryEncoding(node: member(key), codingPath: codingPath + [key], options: encoding.options)
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let encoding: QueryEncoding
        var codingPath: [any CodingKey] { encoding.codingPath }
        var count: Int { encoding.node.count }

        private func next() -> (QueryNode, [any CodingKey]) {
            let path = codingPath + [QueryKey(index: count)]
            return (encoding.node.appendElement(), path)
        }

        mutating func encodeNil() throws { next().0.content = .null }
        mutating func encode(_ value: String) throws { encoding.single(value, into: next().0) }
        mutating func encode(_ value: Bool) throws { encoding.single(try encoding.options.text(for: value) ?? "\(value)", into: next().0) }
        mutating func encode(_ value: Double) throws {
            let (node, path) = next()
            encoding.single(try encoding.number(value, at: path), into: node)
        }
        mutating func encode(_ value: Float) throws {
            let (node, path) = next()
            encoding.single(try encoding.number(value, at: path), into: node)
        }
        // Each width written out: the library's defaults for these would come back through
        // `encode(_:)` of a generic value, whose own encoding calls them again.
        mutating func encode(_ value: Int) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: Int8) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: Int16) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: Int32) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: Int64) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: UInt) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: UInt8) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: UInt16) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: UInt32) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode(_ value: UInt64) throws { encoding.single("\(value)", into: next().0) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let (node, path) = next()
            try encoding.encode(value, into: node, at: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let (node, path) = next()
            return QueryEncoding(node: node, codingPath: path, options: encoding.options).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let (node, path) = next()
            return QueryEncoding(node: node, codingPath: path, options: encoding.options).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let (node, path) = next()
            return QueryEncoding(node: node, codingPath: path, options: encoding.options)
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoding: QueryEncoding
        var codingPath: [any CodingKey] { encoding.codingPath }

        mutating func encodeNil() throws { encoding.node.content = .null }
        mutating func encode(_ value: String) throws { encoding.single(value, into: encoding.node) }
        mutating func encode(_ value: Bool) throws {
            encoding.single(try encoding.options.text(for: value) ?? "\(value)", into: encoding.node)
        }
        mutating func encode(_ value: Double) throws { encoding.single(try encoding.number(value, at: codingPath), into: encoding.node) }
        mutating func encode(_ value: Float) throws {
            encoding.single(try encoding.number(value, at: codingPath), into: encoding.node)
        }
        mutating func encode(_ value: Int) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: Int8) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: Int16) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: Int32) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: Int64) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: UInt) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: UInt8) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: UInt16) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: UInt32) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode(_ value: UInt64) throws { encoding.single("\(value)", into: encoding.node) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoding.encode(value, into: encoding.node, at: codingPath)
        }
    }
}
