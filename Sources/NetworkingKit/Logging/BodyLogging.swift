import Foundation
import HTTPTypes

/// Whether ``LoggingMiddleware`` logs request and response bodies.
///
/// Off by default: bodies are large and often personal. When on, only text bodies are logged
/// (`text/*`, JSON, XML, forms, and `+json`/`+xml` types), cut to `maxBytes`, with sensitive
/// parameters and JSON members hidden by the middleware's ``Redaction``.
@nonexhaustive
public enum BodyLogging: Sendable, Hashable {
    /// Bodies are not logged.
    case none
    /// Text bodies are logged, cut after `maxBytes` bytes.
    case text(maxBytes: Int)

    /// The byte limit, or `nil` when bodies are not logged.
    var maxBytes: Int? {
        if case .text(let maxBytes) = self { return max(0, maxBytes) }
        return nil
    }

    /// Whether a body with this `Content-Type` is text worth logging; a body without a type is not.
    static func isText(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType =
            contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        if mediaType.hasPrefix("text/") || mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml") {
            return true
        }
        return ["application/json", "application/xml", "application/x-www-form-urlencoded"].contains(mediaType)
    }

    /// How many bytes of a body to read to log `maxBytes` of it: enough past the cut to see
    /// whole any secret (known or named) that the cut would split, so that it is redacted before
    /// the text is cut.
    static func bytesToRead(maxBytes: Int, secrets: [String]) -> Int {
        let longest = secrets.map(\.utf8.count).max() ?? 0
        return maxBytes + max(longest, 256)
    }

    /// The loggable text of `data` (the body, or a prefix of at least
    /// ``bytesToRead(maxBytes:secrets:)`` bytes of a body of `totalBytes`): decoded as UTF-8,
    /// redacted, then cut to at most `maxBytes` bytes of whole characters and marked when cut.
    static func text(
        of data: Data, totalBytes: Int? = nil, maxBytes: Int, contentType: String?, redaction: Redaction,
        secrets: [String]
    ) -> String {
        let total = totalBytes ?? data.count
        var text = String(decoding: data.prefix(bytesToRead(maxBytes: maxBytes, secrets: secrets)), as: UTF8.self)
        let isForm = contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        if isForm {
            // A form body is a query string without the `?`.
            text = redaction.redactParameters(in: text, formAtStart: true)
        }
        text = redaction.redact(text, hiding: secrets)
        if total > maxBytes {
            var cut = ""
            var count = 0
            for character in text {
                count += character.utf8.count
                if count > maxBytes { break }
                cut.append(character)
            }
            text = cut + "… (\(total) bytes, truncated)"
        }
        return text
    }
}

extension HTTPFields {
    /// The `Content-Type` of a request or response.
    var contentType: String? { self[.contentType] }
}
