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

    /// `HTTP 404 Not Found`. URLSession does not report the server's reason phrase, so the
    /// standard one stands in when the transport has none.
    static func statusLine(_ response: HTTPResponse) -> String {
        let phrase =
            response.status.reasonPhrase.isEmpty
            ? standardPhrases[response.status.code] ?? "" : response.status.reasonPhrase
        return "HTTP \(response.status.code) \(phrase)"
    }

    /// RFC 9110's reason phrases for the statuses an API commonly sends.
    private static let standardPhrases: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
        403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 412: "Precondition Failed", 413: "Content Too Large", 415: "Unsupported Media Type",
        422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

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
