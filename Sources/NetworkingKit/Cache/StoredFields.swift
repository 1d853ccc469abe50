import HTTPTypes

/// The header-field rules of storing and matching responses: hop-by-hop fields (RFC 9111 §3.1)
/// and `Vary` (§4.1).
enum StoredFields {
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
    /// absent), as ``CachedResponse/varyValues`` keeps them.
    static func varyValues(of request: HTTPRequest, names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            guard let fieldName = HTTPField.Name(name) else { continue }
            let lines = request.headerFields[values: fieldName]
            if !lines.isEmpty { values[name] = normalize(lines.joined(separator: ", ")) }
        }
        return values
    }

    /// Whether a stored response may answer `request` as far as `Vary` goes (RFC 9111 §4.1):
    /// every field it names has the same (whitespace-normalized) value in both, and it does not
    /// vary on `*`.
    static func matches(_ entry: CachedResponse, request: HTTPRequest) -> Bool {
        let names = varyNames(entry.response)
        if names == ["*"] { return false }
        return varyValues(of: request, names: names) == entry.varyValues
    }

    /// A combined value with the whitespace around commas removed, so that `a,b` and `a, b` match
    /// (§4.1 allows such normalization).
    private static func normalize(_ value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingHTTPWhitespace() }
            .joined(separator: ",")
    }
}
