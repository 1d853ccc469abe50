import Foundation
import HTTPTypes

/// The conditions a caller put on its own GET (RFC 9110 §13), answered from a fresh stored
/// response as RFC 9111 §4.3.2 allows, instead of asking the origin.
///
/// `If-None-Match` and `If-Modified-Since` are evaluated here; `If-Match`,
/// `If-Unmodified-Since` and `If-Range` are left to the origin (they guard a change or a range
/// the origin alone can judge), so a request carrying any of them is passed on.
enum CallerConditions {
    /// Whether every condition `request` carries is one the cache can evaluate itself.
    static func cacheCanEvaluate(_ request: HTTPRequest) -> Bool {
        let fields = request.headerFields
        return !fields.contains(.ifMatch) && !fields.contains(.ifUnmodifiedSince) && !fields.contains(.ifRange)
    }

    /// Whether the caller already has `entry` (its conditions say "not modified", RFC 9110
    /// §13.2.2): `If-None-Match` when present, compared weakly with the stored `ETag`, `*`
    /// matching any; otherwise `If-Modified-Since` against the stored `Last-Modified` (or `Date`).
    static func callerHasCurrent(_ request: HTTPRequest, entry: CachedResponse) -> Bool {
        let fields = request.headerFields
        let noneMatch = fields[values: .ifNoneMatch]
        if !noneMatch.isEmpty {
            let tags = entityTags(noneMatch.joined(separator: ","))
            if tags.contains("*") { return true }
            guard let stored = entry.response.headerFields[.eTag].map(entityTags)?.first else { return false }
            return tags.contains { weaklyEqual($0, stored) }
        }
        guard let since = fields[.ifModifiedSince].flatMap(HTTPDate.parse),
            let modified = (entry.response.headerFields[.lastModified] ?? entry.response.headerFields[.date])
                .flatMap(HTTPDate.parse)
        else { return false }
        return modified <= since
    }

    /// The `304` that answers a caller who has `entry` (RFC 9110 §15.4.5): the fields a `200`
    /// would have carried that describe the representation's metadata, without its content.
    static func notModified(_ entry: CachedResponse) -> HTTPResponse {
        let kept: [HTTPField.Name] = [.cacheControl, .contentLocation, .date, .eTag, .expires, .vary, .lastModified]
        var fields = HTTPFields()
        for name in kept {
            let values = entry.response.headerFields[values: name]
            if !values.isEmpty { fields[values: name] = values }
        }
        return HTTPResponse(status: .notModified, headerFields: fields)
    }

    /// The entity tags of an `ETag` or `If-None-Match` value: `*`, or tags such as `"a"` and
    /// `W/"b"` separated by commas (a comma inside quotes belongs to its tag). An unquoted tag,
    /// which some servers send, is read as if quoted.
    static func entityTags(_ value: String) -> [String] {
        var tags: [String] = []
        var current = ""
        var quoted = false
        for character in value {
            switch character {
            case "\"":
                quoted.toggle()
                current.append(character)
            case "," where !quoted:
                tags.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        tags.append(current)
        return tags.map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }.map(Validation.quoted)
    }

    /// RFC 9110 §8.8.3.2's weak comparison: the opaque tags are the same, either or both weak.
    private static func weaklyEqual(_ first: String, _ second: String) -> Bool {
        func opaque(_ tag: String) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag) }
        return opaque(first) == opaque(second)
    }
}
