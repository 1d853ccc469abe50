public import Foundation

/// Encodes an `Encodable` value as query parameters or a form body
/// (`application/x-www-form-urlencoded`): one name and value per property, with the usual choices
/// for arrays, booleans, dates and nested values. The names and values it makes are escaped as every
/// query item is (strictly: only unreserved characters stay as they are).
///
/// ```swift
/// struct FilmFilter: Encodable, Sendable {
///     var director: String?
///     var years: [Int]
///     var includeShorts: Bool
/// }
/// let filter = FilmFilter(director: "Pete Docter", years: [2009, 2015], includeShorts: false)
/// let films = Request<[PixarFilm]>(path: "/films", query: try URLQueryEncoder().encode(filter))
/// // /films?director=Pete%20Docter&include_shorts=false&years=2009&years=2015
/// ```
///
/// Properties come out in name order (sorted, so a cache or a signature sees the same URL each
/// time); `nil` leaves a property out. Names are converted as the client's JSON encoder converts
/// them (a dictionary's keys too, as `JSONEncoder` does). Give an enum a `String` or `Int` raw
/// type: a case without one encodes as an empty nested value, which writes nothing. A dictionary
/// whose keys are not strings or integers encodes as a list of keys and values, as it does in JSON.
public struct URLQueryEncoder: Sendable {
    /// How an array is written.
    public enum ArrayEncoding: Sendable, Hashable {
        /// The name repeated: `years=2009&years=2015` (the default; what most servers read).
        case repeatedName
        /// The name with empty brackets: `years[]=2009&years[]=2015` (PHP, Rails).
        case brackets
        /// The name with each index: `years[0]=2009&years[1]=2015`.
        case indexed
        /// One value, the items joined by commas: `years=2009,2015` (OpenAPI's `explode: false`);
        /// only for arrays of single values. The comma is escaped with the rest (`%2C`), which
        /// servers decode before they split; an item that holds a comma cannot be told apart.
        case commaSeparated
    }

    /// How a `Bool` is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` and `false` (the default).
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// ISO 8601 in UTC, `2026-11-28T23:40:00Z` (the default, as the client's JSON).
        case iso8601
        /// Seconds since 1970, a whole number when it is one.
        case secondsSince1970
        /// Milliseconds since 1970.
        case millisecondsSince1970
        /// Your own format.
        case custom(@Sendable (Date) -> String)
    }

    /// How the properties of a nested value are named.
    public enum NestedEncoding: Sendable, Hashable {
        /// `filter[director]=...` (the default; Rails, PHP, qs).
        case brackets
        /// `filter.director=...`.
        case dots
    }

    /// How property names are written.
    public enum KeyEncoding: Sendable, Hashable {
        /// As declared.
        case useDefaultKeys
        /// `includeShorts` as `include_shorts` (the default, as the client's JSON).
        case convertToSnakeCase
    }

    /// How arrays are written; ``ArrayEncoding/repeatedName`` by default.
    public var arrays: ArrayEncoding
    /// How booleans are written; ``BoolEncoding/literal`` by default.
    public var bools: BoolEncoding
    /// How dates are written; ``DateEncoding/iso8601`` by default.
    public var dates: DateEncoding
    /// How nested values are named; ``NestedEncoding/brackets`` by default.
    public var nested: NestedEncoding
    /// How property names are written; ``KeyEncoding/convertToSnakeCase`` by default.
    public var keys: KeyEncoding

    /// Creates an encoder.
    public init(
        arrays: ArrayEncoding = .repeatedName, bools: BoolEncoding = .literal, dates: DateEncoding = .iso8601,
        nested: NestedEncoding = .brackets, keys: KeyEncoding = .convertToSnakeCase
    ) {
        self.arrays = arrays
        self.bools = bools
        self.dates = dates
        self.nested = nested
        self.keys = keys
    }

    /// The query items for `value`, whose encoding must be keyed (a struct, a class, a dictionary
    /// with `String` keys).
    /// - Throws: `EncodingError.invalidValue` for a value that is not keyed at the top, an array
    ///   of arrays or of nested values written ``ArrayEncoding/commaSeparated``, a non-finite number,
    ///   or an error of the value's own `encode(to:)`.
    public func encode(_ value: some Encodable) throws -> [URLQueryItem] {
        let root = QueryNode()
        try value.encode(to: QueryEncoding(node: root, codingPath: [], options: self))
        guard case .keyed(let members) = root.content else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "A query is made of named values: encode a struct or a dictionary."))
        }
        var items: [URLQueryItem] = []
        for (name, node) in members.sorted(by: { $0.0 < $1.0 }) {
            try flatten(node, name: name, into: &items, codingPath: [QueryKey(name)])
        }
        return items
    }

    private func flatten(_ node: QueryNode, name: String, into items: inout [URLQueryItem], codingPath: [any CodingKey]) throws {
        switch node.content {
        case .empty, .null:
            return
        case .single(let text):
            items.append(URLQueryItem(name: name, value: text))
        case .keyed(let members):
            for (key, child) in members.sorted(by: { $0.0 < $1.0 }) {
                let childName = nested == .brackets ? "\(name)[\(key)]" : "\(name).\(key)"
                try flatten(child, name: childName, into: &items, codingPath: codingPath + [QueryKey(key)])
            }
        case .unkeyed(let elements):
            if arrays == .commaSeparated {
                var texts: [String] = []
                for element in elements {
                    switch element.content {
                    case .single(let text): texts.append(text)
                    case .null, .empty: continue
                    case .keyed, .unkeyed:
                        throw EncodingError.invalidValue(
                            name,
                            .init(codingPath: codingPath, debugDescription: "Comma-separated arrays hold single values only."))
                    }
                }
                items.append(URLQueryItem(name: name, value: texts.joined(separator: ",")))
                return
            }
            for (index, element) in elements.enumerated() {
                let elementName =
                    switch arrays {
                    case .repeatedName, .commaSeparated: name
                    case .brackets: "\(name)[]"
                    case .indexed: "\(name)[\(index)]"
                    }
                try flatten(element, name: elementName, into: &items, codingPath: codingPath + [QueryKey(index: index)])
            }
        }
    }

    /// `key` as written: snake_case by default, as `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`
    /// splits words (`imageURL` is `image_url`, `version2Beta` is `version2_beta`).
    func name(for key: String) -> String {
        guard keys == .convertToSnakeCase, !key.isEmpty else { return key }
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord = previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true)
                if startsWord, previous != "_" { result.append("_") }
            }
            result += character.lowercased()
        }
        return result
    }

    /// `value`'s text, for the types whose text the options decide; `nil` for the others.
    func text(for value: some Encodable) throws -> String? {
        switch value {
        case let date as Date:
            switch dates {
            case .iso8601: return date.formatted(.iso8601)
            case .secondsSince1970: return Self.number(date.timeIntervalSince1970)
            case .millisecondsSince1970: return Self.number((date.timeIntervalSince1970 * 1000).rounded())
            case .custom(let format): return format(date)
            }
        case let bool as Bool:
            return bools == .literal ? (bool ? "true" : "false") : (bool ? "1" : "0")
        case let data as Data:
            return data.base64EncodedString()
        case let url as URL:
            return url.absoluteString
        case let decimal as Decimal:
            return decimal.description
        default:
            return nil
        }
    }

    /// A number as text: without `.0` when it is whole.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
