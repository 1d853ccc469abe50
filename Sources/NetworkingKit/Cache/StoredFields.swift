import Foundation
import HTTPTypes

/// The header-field rules of storing and matching responses: hop-by-hop fields (RFC 9111 §3.1)
/// and `Vary` (§4.1).
///
/// `Set-Cookie` does not inhibit storing (RFC 9111 §7.3). In a credential's own partition it is
/// stored and replayed, back to the one user who received it; an entry in the shared partition
/// (a `public` answer, or one to a request without credentials) keeps no `Set-Cookie`, since
/// every user may be served from it. Logs redact it (``Redaction``).
enum StoredFields {
    /// The fields that set cookies.
    private static let cookieSetters: [HTTPField.Name] = [.setCookie, HTTPField.Name("Set-Cookie2")!]

    /// `response` as an entry in `partition` keeps it: in the shared partition (`""`), without
    /// the cookies it set for the user who fetched it.
    static func keptIn(partition: String, _ response: HTTPResponse) -> HTTPResponse {
        guard partition.isEmpty, cookieSetters.contains(where: { response.headerFields.contains($0) }) else { return response }
        var kept = response
        for name in cookieSetters { kept.headerFields[name] = nil }
        return kept
    }

    /// Fields that describe one connection, not the response, and are never stored (RFC 9110
    /// §7.6.1), besides the ones `Connection` names.
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
    ]

    /// `fields` without hop-by-hop fields: those listed above, any `Proxy-*` field, and the
    /// fields `Connection` names (RFC 9111 §3.1).
    static func removingHopByHop(_ fields: HTTPFields) -> HTTPFields {
        var named = hopByHop
        for value in fields[values: .connection] {
            for token in value.split(separator: ",") {
                named.insert(token.trimmingHTTPWhitespace().lowercased())
            }
        }
        return HTTPFields(
            fields.filter { field in
                let name = field.name.canonicalName
                return !named.contains(name) && !name.hasPrefix("proxy-")
            })
    }

    /// The lowercased field names a response's `Vary` lists; `["*"]` when it holds `*`.
    static func varyNames(_ response: HTTPResponse) -> [String] {
        var names: [String] = []
        for value in response.headerFields[values: .vary] {
            for token in value.split(separator: ",") {
                let name = token.trimmingHTTPWhitespace().lowercased()
                if name == "*" { return ["*"] }
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The request's values of the fields `names` lists, combined as one line each (absent fields
    /// absent), as ``CachedResponse/varyValues`` keeps them: as the SHA-256 digest (hex) of the
    /// whitespace-normalized value, never the value itself.
    ///
    /// Why a digest: `Vary: Cookie` or `Vary: Authorization` would otherwise put the session
    /// cookie or the bearer token into the stored entry, and so in plain text on disk. Matching
    /// only needs equality, which the digests keep.
    static func varyValues(of request: HTTPRequest, names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            guard let fieldName = HTTPField.Name(name) else { continue }
            let lines = request.headerFields[values: fieldName]
            if !lines.isEmpty { values[name] = LowercaseHex.sha256(of: normalize(lines.joined(separator: ", "), name: name)) }
        }
        return values
    }

    /// Whether a stored response may answer `request` as far as `Vary` goes (RFC 9111 §4.1):
    /// every field it names has the same (whitespace-normalized) value in both, and it does not
    /// vary on `*`.
    /// `Accept-Language` also matches when the stored response's `Content-Language` is the one
    /// the request prefers most: the variant a server that has it chooses for that request.
    static func matches(_ entry: CachedResponse, request: HTTPRequest) -> Bool {
        let names = varyNames(entry.response)
        if names == ["*"] { return false }
        let values = varyValues(of: request, names: names)
        if values == entry.varyValues { return true }
        return names.allSatisfy { name in
            values[name] == entry.varyValues[name]
                || (name == "accept-language" && isPreferredLanguage(of: entry.response, for: request))
        }
    }

    /// Whether `response`'s one `Content-Language` is the request's most preferred language: the
    /// `Accept-Language` range with the highest `q` (the first of equals), RFC 9110 §12.5.4.
    private static func isPreferredLanguage(of response: HTTPResponse, for request: HTTPRequest) -> Bool {
        guard let language = response.headerFields[.contentLanguage]?.trimmingHTTPWhitespace().lowercased(),
            !language.isEmpty, !language.contains(",")
        else { return false }
        var preferred: (range: String, weight: Double)?
        for element in request.headerFields[values: .acceptLanguage].joined(separator: ",").split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let first = parts.first else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingHTTPWhitespace().lowercased()
                if pair.hasPrefix("q=") { weight = Double(pair.dropFirst(2)) ?? 0 }
            }
            if weight > (preferred?.weight ?? 0) { preferred = (first.trimmingHTTPWhitespace().lowercased(), weight) }
        }
        return preferred?.range == language
    }

    /// A combined value with the whitespace around commas removed, so that `a,b` and `a, b` match
    /// (§4.1 allows such normalization). `Accept-Language` is also compared without regard to
    /// case or order (`en, de` is `De, EN`): language tags are case-insensitive (RFC 5646 §2.1.1)
    /// and the preference between them lies in their `q` weights, which stay with each tag.
    private static func normalize(_ value: String, name: String) -> String {
        let elements = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingHTTPWhitespace() }
        guard name == "accept-language" else { return elements.joined(separator: ",") }
        return elements.map { $0.lowercased().replacingOccurrences(of: " ", with: "") }.filter { !$0.isEmpty }.sorted()
            .joined(separator: ",")
    }
}
