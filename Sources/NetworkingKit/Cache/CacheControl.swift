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

    /// Lowercased directive names to their argument (unquoted), `nil` for a bare directive.
    private(set) var directives: [String: String?] = [:]

    /// Parses every `Cache-Control` field line of `fields`; with `pragmaFallback`, a request's
    /// `Pragma: no-cache` counts as `no-cache` when it has no `Cache-Control` (RFC 9111 §5.4).
    init(_ fields: HTTPFields, pragmaFallback: Bool = false) {
        let lines = fields[values: .cacheControl]
        for line in lines {
            for (name, argument) in Self.split(line) where directives[name] == nil {
                directives[name] = .some(argument)
            }
        }
        if pragmaFallback, lines.isEmpty,
            let pragma = HTTPField.Name("Pragma"),
            fields[values: pragma].contains(where: { $0.lowercased().contains("no-cache") })
        {
            directives["no-cache"] = .some(nil)
        }
    }

    /// Whether the directive is present, with or without an argument.
    func has(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// The directive's argument as delta-seconds, or `nil` when the directive is absent.
    func seconds(_ name: String) -> Seconds? {
        guard let entry = directives[name] else { return nil }
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
        guard let entry = directives["max-stale"] else { return nil }
        guard entry != nil else { return Int.max }
        return validSeconds("max-stale") ?? 0
    }

    /// Splits one field line into directives, respecting quoted strings (a `no-cache="a, b"`
    /// argument holds a comma).
    private static func split(_ line: String) -> [(String, String?)] {
        // Without a quoted string (nearly every line: `no-store`, `public, max-age=60`), the
        // directives are the comma-separated parts, taken as slices of the line.
        guard line.utf8.contains(UInt8(ascii: "\"")) else {
            return line.split(separator: ",", omittingEmptySubsequences: true).compactMap(directive)
        }
        return splitQuoted(line)
    }

    /// A directive without quotes: its name lowercased, and its argument when it has one.
    private static func directive(_ part: Substring) -> (String, String?)? {
        let trimmed = part.trimmingHTTPWhitespace()
        guard !trimmed.isEmpty else { return nil }
        guard let equals = trimmed.firstIndex(of: "=") else { return (trimmed.lowercased(), nil) }
        return (
            trimmed[..<equals].trimmingHTTPWhitespace().lowercased(),
            trimmed[trimmed.index(after: equals)...].trimmingHTTPWhitespace()
        )
    }

    /// The directives of a line with quoted strings, whose commas and escapes are the strings'.
    private static func splitQuoted(_ line: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
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
                result.append((name, value))
            } else {
                result.append((trimmed.lowercased(), nil))
            }
        }
        return result
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isWhitespace($0) }), let end = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
