#if DemoAPI
import Foundation
import NetworkingKit

/// Writes what `netkit request` shows: a status line, headers with secrets redacted, and the
/// body, pretty-printed when it is JSON.
struct ResponsePrinter {
    /// What the command hides: the library's default credentials plus the usual API-key headers and
    /// query parameters.
    static let redaction = Redaction.default.adding(
        headers: ["X-API-Key", "X-Auth-Token"], queryParameters: ["api_key", "apikey", "access_token", "token"])

    /// `Authorization: Bearer <redacted>`, `Cookie: <redacted>`, other headers as they are.
    static func redacted(_ field: HTTPField) -> String {
        let shown = redaction.redact(HTTPFields([field])).first ?? field
        return "\(shown.name): \(shown.value)"
    }

    /// `HTTP 404 Not Found`; `HTTP 299` for a status with no phrase (the transports give the
    /// standard one when the server's is not known).
    static func statusLine(_ response: HTTPResponse) -> String {
        let phrase = response.withStandardReasonPhrase.status.reasonPhrase
        return phrase.isEmpty ? "HTTP \(response.status.code)" : "HTTP \(response.status.code) \(phrase)"
    }

    static func headerLines(_ fields: HTTPFields, prefix: String = "") -> [String] {
        fields.map { prefix + redacted($0) }
    }

    /// The body for a terminal: pretty JSON, UTF-8 text as it is, or a byte count for binary data.
    static func bodyText(_ data: Data, contentType: String?) -> String? {
        guard !data.isEmpty else { return nil }
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") || data.first == UInt8(ascii: "{") || data.first == UInt8(ascii: "[") {
            if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
                let pretty = try? JSONSerialization.data(
                    withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]),
                let text = String(data: pretty, encoding: .utf8)
            {
                return text
            }
        }
        if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") {
            return text
        }
        return "(\(data.count) bytes of binary data)"
    }
}
#endif
