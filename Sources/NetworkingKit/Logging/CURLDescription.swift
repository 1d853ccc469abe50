public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

extension HTTPRequest {
    /// The request as a `curl` command that can be pasted into a POSIX shell, for a bug report or
    /// to replay a call by hand.
    ///
    /// ```swift
    /// request.curlDescription(body: Data(#"{"rating":5}"#.utf8))
    /// // curl -X POST 'https://api.example.com/v1/films/1/ratings' -H 'Authorization: Bearer <redacted>' \
    /// //   -H 'Content-Type: application/json' --data-raw '{"rating":5}'
    /// ```
    ///
    /// Each argument is single-quoted, with a `'` inside written `'\''`, so no character of a
    /// header or body reaches the shell unquoted. Secrets are hidden by `redaction` (in the URL,
    /// the headers, and form or JSON bodies); pass `nil` to get the command with the real
    /// credentials, which then runs as the original did. A body that is not UTF-8 text is left
    /// out, with `--data-raw` noting its size, since a shell argument cannot carry every byte.
    /// - Parameters:
    ///   - body: The request body, if any.
    ///   - redaction: What to hide; ``Redaction/default`` hides the HTTP credential headers.
    /// - Returns: A one-line command.
    public func curlDescription(body: Data? = nil, redaction: Redaction? = .default) -> String {
        var arguments = ["curl"]
        // `-X HEAD` makes curl wait for a body that never comes; `--head` is the HEAD request.
        if method == .head {
            arguments.append("--head")
        } else {
            // A method is a token, which may hold shell characters (`&`, `$`, `|`): quoted unless plain.
            let plain = method.rawValue.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            arguments += ["-X", plain ? method.rawValue : Self.quoted(method.rawValue)]
        }
        let url = (self.url.map { redaction?.redact($0) ?? $0 })?.absoluteString ?? path ?? "/"
        // curl reads `[]{}` in a URL as ranges and sets; --globoff sends them as they are.
        if url.contains(where: { "[]{}".contains($0) }) {
            arguments.append("--globoff")
        }
        arguments.append(Self.quoted(url))

        let fields = redaction?.redact(headerFields) ?? headerFields
        for field in fields {
            arguments += ["-H", Self.quoted("\(field.name.rawName): \(field.value)")]
        }

        if let body, !body.isEmpty {
            // --data-raw, not --data-binary: a body starting with `@` is text, not a file to upload.
            arguments.append("--data-raw")
            if let text = String(data: body, encoding: .utf8) {
                arguments.append(Self.quoted(Self.redacted(body: text, contentType: headerFields[.contentType], redaction)))
            } else {
                arguments.append(Self.quoted("<\(body.count) bytes of binary data>"))
            }
        }
        return arguments.joined(separator: " ")
    }

    /// `text` in POSIX single quotes: everything inside is literal except `'`, which is closed,
    /// escaped and reopened (`'\''`).
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private static func redacted(body text: String, contentType: String?, _ redaction: Redaction?) -> String {
        guard let redaction else { return text }
        var result = text
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false {
            result = redaction.redactParameters(in: result, formAtStart: true)
        }
        return redaction.redact(result)
    }
}
