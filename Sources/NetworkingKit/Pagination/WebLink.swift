public import Foundation
import HTTPTypes

/// One link of an RFC 8288 `Link` header: `<https://api.example.com/items?page=2>; rel="next"`.
public struct WebLink: Sendable, Hashable {
    /// The target, resolved against the URL of the request the header answered.
    public let url: URL
    /// The relation types (`next`, `prev`, `last`...), lowercased; `rel` may name several.
    public let relations: Set<String>
    /// Every parameter (`title`, `type`...), names lowercased, quotes and escapes removed; the
    /// first occurrence of a name wins, as RFC 8288 §3 says.
    public let parameters: [String: String]

    /// Parses a `Link` field value; links that cannot be read are skipped, the others kept.
    /// - Parameters:
    ///   - value: The field value; several `Link` fields joined with commas are fine.
    ///   - base: The URL relative targets are resolved against (the request's).
    public static func parse(_ value: String, base: URL?) -> [WebLink] {
        var scanner = Scanner(Array(value.unicodeScalars))
        var links: [WebLink] = []
        while !scanner.isAtEnd {
            scanner.skip { $0 == " " || $0 == "\t" || $0 == "," }
            guard scanner.take("<") else {
                scanner.skipPastComma()
                continue
            }
            let reference = scanner.take { $0 != ">" }
            guard scanner.take(">") else { break }
            var parameters: [String: String] = [:]
            while true {
                scanner.skip { $0 == " " || $0 == "\t" }
                guard scanner.take(";") else { break }
                scanner.skip { $0 == " " || $0 == "\t" }
                let name = scanner.take { !";,= \t".unicodeScalars.contains($0) }.lowercased()
                scanner.skip { $0 == " " || $0 == "\t" }
                var parameter = ""
                if scanner.take("=") {
                    scanner.skip { $0 == " " || $0 == "\t" }
                    parameter = scanner.peek == "\"" ? scanner.quoted() : scanner.take { !";, \t".unicodeScalars.contains($0) }
                }
                if !name.isEmpty, parameters[name] == nil { parameters[name] = parameter }
            }
            let relations = Set((parameters["rel"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))
            if let url = URL(string: reference.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL {
                links.append(WebLink(url: url, relations: relations, parameters: parameters))
            }
            scanner.skipPastComma()
        }
        return links
    }

    /// The `Link` field name; a valid token, so the initializer cannot fail.
    static let field = HTTPField.Name("Link")!

    /// The first link of `relation` in `fields`' `Link` headers.
    static func first(_ relation: String, in fields: HTTPFields, base: URL?) -> URL? {
        let values = fields[values: field]
        guard !values.isEmpty else { return nil }
        return parse(values.joined(separator: ", "), base: base).first { $0.relations.contains(relation) }?.url
    }
}

/// A cursor over the characters of a header value.
private struct Scanner {
    let characters: [Unicode.Scalar]
    var index = 0

    init(_ characters: [Unicode.Scalar]) {
        self.characters = characters
    }

    var isAtEnd: Bool { index >= characters.count }
    var peek: Unicode.Scalar? { isAtEnd ? nil : characters[index] }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek == character else { return false }
        index += 1
        return true
    }

    mutating func take(while matches: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        while let character = peek, matches(character) {
            text.append(character)
            index += 1
        }
        return String(text)
    }

    mutating func skip(while matches: (Unicode.Scalar) -> Bool) {
        while let character = peek, matches(character) { index += 1 }
    }

    /// A quoted-string, its quotes removed and `\` escapes undone.
    mutating func quoted() -> String {
        index += 1
        var text = String.UnicodeScalarView()
        while let character = peek, character != "\"" {
            index += 1
            if character == "\\", let escaped = peek {
                text.append(escaped)
                index += 1
            } else {
                text.append(character)
            }
        }
        index += 1
        return String(text)
    }

    /// To the next comma outside a quoted string or angle brackets: the next link.
    mutating func skipPastComma() {
        while let character = peek {
            if character == "\"" {
                _ = quoted()
                continue
            }
            if character == "<" {
                index += 1
                skip { $0 != ">" }
            }
            index += 1
            if character == "," { return }
        }
    }
}
