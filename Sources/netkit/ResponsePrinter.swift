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

    /// Where an exchange's time went, in milliseconds: `first byte 3 ms, last byte 4 ms, new
    /// connection (connect 1 ms, TLS 2 ms)`, each part only where the transport reported it.
    static func timing(_ timing: RequestTiming) -> String {
        func ms(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        var parts: [String] = []
        if let firstByte = timing.firstByte { parts.append("first byte \(ms(firstByte))") }
        if let lastByte = timing.lastByte { parts.append("last byte \(ms(lastByte))") }
        if let reused = timing.reusedConnection {
            var phases: [String] = []
            if let dns = timing.dns { phases.append("DNS \(ms(dns))") }
            if let connect = timing.connect { phases.append("connect \(ms(connect))") }
            if let tls = timing.tlsHandshake { phases.append("TLS \(ms(tls))") }
            let connection = reused ? "reused connection" : "new connection"
            parts.append(phases.isEmpty ? connection : "\(connection) (\(phases.joined(separator: ", ")))")
        }
        return parts.joined(separator: ", ")
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
