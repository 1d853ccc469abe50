import Foundation
import HTTPTypes

/// Whether ``LoggingMiddleware`` logs request and response bodies.
///
/// Off by default: bodies are large and often personal. When on, only text bodies are logged
/// (`text/*`, JSON, XML, forms, and `+json`/`+xml` types), cut to `maxBytes`, with sensitive
/// parameters and JSON members hidden by the middleware's ``Redaction``.
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
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        if mediaType.hasPrefix("text/") || mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml") {
            return true
        }
        return ["application/json", "application/xml", "application/x-www-form-urlencoded"].contains(mediaType)
    }

    /// The loggable text of `data`: cut to `maxBytes`, decoded as UTF-8 (a character split by the
    /// cut becomes U+FFFD), marked when cut, and redacted.
    static func text(
        of data: Data, maxBytes: Int, contentType: String?, redaction: Redaction, secrets: [String]
    ) -> String {
        var text = String(decoding: data.prefix(maxBytes), as: UTF8.self)
        let isForm = contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        if isForm {
            // A form body is a query string without the `?`.
            text = redaction.redactParameters(in: text, formAtStart: true)
        }
        text = redaction.redact(text, hiding: secrets)
        if data.count > maxBytes {
            text += "… (\(data.count) bytes, truncated)"
        }
        return text
    }
}

extension HTTPFields {
    /// The `Content-Type` of a request or response.
    var contentType: String? { self[.contentType] }
}
