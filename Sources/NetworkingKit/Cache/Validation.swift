import Foundation
import HTTPTypes

/// Revalidating a stored response (RFC 9111 §4.3): the conditional request, and the update of the
/// stored response by a `304 Not Modified`.
enum Validation {
    /// Whether `entry` carries a validator (`ETag` or `Last-Modified`) to revalidate with.
    static func hasValidator(_ entry: CachedResponse) -> Bool {
        entry.response.headerFields.contains(.eTag) || entry.response.headerFields.contains(.lastModified)
    }

    /// `request` made conditional on `entry` (§4.3.1): `If-None-Match` with its entity tag,
    /// `If-Modified-Since` with its `Last-Modified` date. Weak tags are sent as they are (the
    /// server compares weakly); an unquoted tag, which some servers send, is quoted.
    static func conditionalRequest(_ request: HTTPRequest, for entry: CachedResponse) -> HTTPRequest {
        var request = request
        let fields = entry.response.headerFields
        if let eTag = fields[.eTag]?.trimmingHTTPWhitespace(), !eTag.isEmpty {
            request.headerFields[.ifNoneMatch] = quoted(eTag)
        }
        if let lastModified = fields[.lastModified], HTTPDate.parse(lastModified) != nil {
            request.headerFields[.ifModifiedSince] = lastModified
        }
        return request
    }

    /// Whether the caller made the request conditional itself (see ``CallerConditions``).
    static func isConditional(_ request: HTTPRequest) -> Bool {
        // One pass over the fields, most of them passed over on their first letter, where a lookup
        // by name per condition cost five passes and a joined value each.
        request.headerFields.contains { field in
            field.name.canonicalName.utf8.first == UInt8(ascii: "i") && conditionNames.contains(field.name)
        }
    }

    /// The fields that make a request conditional (RFC 9110 §13.1), every one beginning with "if-".
    private static let conditionNames: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange]

    /// Whether a `304` may update `entry` (§4.3.4): when both carry a strong entity tag, they are
    /// the same. (A `304` for another representation would otherwise refresh the wrong body.)
    static func notModified(_ response: HTTPResponse, refers entry: CachedResponse) -> Bool {
        guard let received = response.headerFields[.eTag].map({ quoted($0.trimmingHTTPWhitespace()) }),
            let stored = entry.response.headerFields[.eTag].map({ quoted($0.trimmingHTTPWhitespace()) }),
            !received.hasPrefix("W/"), !stored.hasPrefix("W/")
        else { return true }
        return received == stored
    }

    /// `entry` freshened by a `304` (§3.2, §4.3.4): each field of the `304` replaces the stored
    /// field of the same name (`Set-Cookie` too), except hop-by-hop fields and
    /// `Content-Length`, which describes the stored body, not the empty `304`. The stored `Age`
    /// goes (it described the old response); without a `Date` in the `304`, the time it arrived
    /// stands in, so that the age is reckoned from the revalidation. A `Vary` in the `304`
    /// replaces the stored one, so the vary values are taken again from `request`, the request
    /// that revalidated: the old ones name fields the response no longer varies on.
    static func freshen(
        _ entry: CachedResponse, with notModified: HTTPResponse, request: HTTPRequest, requestTime: Date, responseTime: Date
    ) -> CachedResponse {
        var fields = entry.response.headerFields
        fields[.age] = nil
        let update = StoredFields.removingHopByHop(notModified.headerFields)
        for name in Set(update.map(\.name)) where name != .contentLength {
            fields[values: name] = update[values: name]
        }
        if update[.date] == nil {
            fields[.date] = HTTPDate.format(responseTime)
        }
        var freshened = entry
        freshened.response.headerFields = fields
        freshened.requestTime = requestTime
        freshened.responseTime = responseTime
        if update[.vary] != nil {
            freshened.varyValues = StoredFields.varyValues(
                of: request, names: StoredFields.varyNames(freshened.response))
        }
        return freshened
    }

    /// An entity tag in quotes (`"abc"`, `W/"abc"`), quoting a bare one.
    static func quoted(_ tag: String) -> String {
        if tag.hasPrefix("\"") || tag.hasPrefix("W/\"") || tag == "*" { return tag }
        if tag.hasPrefix("W/") { return "W/\"" + tag.dropFirst(2) + "\"" }
        return "\"" + tag + "\""
    }
}
