import HTTPTypes

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), parsed once.
///
/// Directive names are case-insensitive; arguments may be tokens or quoted strings. When a
/// directive appears twice, the first occurrence wins (RFC 9111 §4.2.1). A `delta-seconds`
/// argument that overflows becomes 2^31 (§1.2.2); one that is not a number is invalid, which
/// the caller reads as "stale" for `max-age` (§4.2.1: invalid freshness information should make
/// a response stale).
struct CacheControl: Sendable, Equatable {
    /// A directive's argument as `delta-seconds`.
    enum Seconds: Sendable, Equatable {
        case valid(Int)
        /// Present, but missing or not a non-negative integer.
        case invalid
    }

    /// A directive: its lowercased name, and its argument (unquoted), `nil` for a bare one.
    struct Directive: Sendable, Equatable {
        let name: String
        let argument: String?
    }

    /// The directives in the order they came; a lookup finds the first of a name. A list, not a
    /// dictionary: a line holds a handful, and this is parsed several times per call.
    private(set) var directives: [Directive] = []

    private static let pragma = HTTPField.Name("Pragma")

    /// Parses every `Cache-Control` field line of `fields`; with `pragmaFallback`, a request's
    /// `Pragma: no-cache` counts as `no-cache` when it has no `Cache-Control` (RFC 9111 §5.4).
    init(_ fields: HTTPFields, pragmaFallback: Bool = false) {
        var hasCacheControl = false
        for field in fields where field.name == .cacheControl {
            hasCacheControl = true
            Self.parse(field.value, into: &directives)
        }
        if pragmaFallback, !hasCacheControl, let pragma = Self.pragma,
            fields.contains(where: { $0.name == pragma && Self.pragmaAsksNoCache($0.value) })
        {
            directives.append(Directive(name: "no-cache", argument: nil))
        }
    }

    /// The directives of one `Cache-Control` field line.
    init(line: String) {
        Self.parse(line, into: &directives)
    }

    /// Whether a `Pragma` value holds `no-cache` (RFC 9111 §5.4), the one directive it has.
    static func pragmaAsksNoCache(_ value: String) -> Bool {
        value.lowercased().contains("no-cache")
    }

    /// The first directive named `name`: `.some(nil)` when it is bare, `nil` when it is absent.
    private func argument(of name: String) -> String?? {
        directives.first { $0.name == name }.map(\.argument)
    }

    /// Whether the directive is present, with or without an argument.
    func has(_ name: String) -> Bool {
        argument(of: name) != nil
    }

    /// The directive's argument as delta-seconds, or `nil` when the directive is absent.
    func seconds(_ name: String) -> Seconds? {
        guard let entry = argument(of: name) else { return nil }
        guard let argument = entry, argument.isASCIIDigits else { return .invalid }
        // RFC 9111 §1.2.2: a delta-seconds too large to represent is 2^31.
        return .valid(Int(argument).map { min($0, 2_147_483_648) } ?? 2_147_483_648)
    }

    /// The directive's argument as delta-seconds when valid, otherwise `nil`.
    func validSeconds(_ name: String) -> Int? {
        if case .valid(let value) = seconds(name) { return value }
        return nil
    }

    var noStore: Bool { has("no-store") }
    var noCache: Bool { has("no-cache") }
    var mustRevalidate: Bool { has("must-revalidate") }
    var isPublic: Bool { has("public") }
    var onlyIfCached: Bool { has("only-if-cached") }

    /// `max-stale` as a request sends it: `nil` when absent, `Int.max` when bare ("any staleness",
    /// RFC 9111 §5.2.1.2), an invalid argument counting as none accepted.
    var maxStale: Int? {
        guard let entry = argument(of: "max-stale") else { return nil }
        guard entry != nil else { return Int.max }
        return validSeconds("max-stale") ?? 0
    }

    /// Splits one field line into directives, respecting quoted strings (a `no-cache="a, b"`
    /// argument holds a comma).
    private static func parse(_ line: String, into directives: inout [Directive]) {
        // Without a quoted string (nearly every line: `no-store`, `public, max-age=60`), the
        // directives are the comma-separated parts, taken as slices of the line.
        guard !line.utf8.contains(UInt8(ascii: "\"")) else {
            directives += splitQuoted(line)
            return
        }
        // Read as bytes: every delimiter is ASCII, so each slice starts and ends on a character.
        let bytes = line.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            if let directive = directive(bytes[start..<end]) { directives.append(directive) }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
    }

    /// A directive without quotes: its name lowercased, and its argument when it has one.
    private static func directive(_ part: Substring.UTF8View) -> Directive? {
        let trimmed = part.trimmingHTTPWhitespace()
        guard !trimmed.isEmpty else { return nil }
        guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")) else {
            return Directive(name: lowercasedName(trimmed), argument: nil)
        }
        return Directive(
            name: lowercasedName(trimmed[..<equals].trimmingHTTPWhitespace()),
            argument: String(Substring(trimmed[trimmed.index(after: equals)...].trimmingHTTPWhitespace())))
    }

    /// A directive's name in lowercase; nearly every one already is, and is then taken as it is.
    private static func lowercasedName(_ name: Substring.UTF8View) -> String {
        String(Substring(name)).lowercasedIfNeeded
    }

    /// The directives of a line with quoted strings, whose commas and escapes are the strings'.
    private static func splitQuoted(_ line: String) -> [Directive] {
        var result: [Directive] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        var parts: [String] = []
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if inQuotes, character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
                current.append(character)
            } else if character == ",", !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        for part in parts {
            let trimmed = part.trimmingHTTPWhitespace()
            guard !trimmed.isEmpty else { continue }
            if let equals = trimmed.firstIndex(of: "=") {
                let name = trimmed[..<equals].trimmingHTTPWhitespace().lowercased()
                var value = trimmed[trimmed.index(after: equals)...].trimmingHTTPWhitespace()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                result.append(Directive(name: name, argument: value))
            } else {
                result.append(Directive(name: trimmed.lowercased(), argument: nil))
            }
        }
        return result
    }
}
