import Foundation
import HTTPTypes

extension HTTPResponse {
    /// The response's strong validator (RFC 9110 §8.8.1), what `If-Range` may send and what says
    /// two parts are of the same bytes: its `ETag` unless weak; without one, a `Last-Modified`
    /// at least 60 seconds before its `Date` (§8.8.2.2: a date a second later could name two
    /// versions). The one rule for the cache's parts and resumed downloads.
    var strongValidator: String? {
        if let tag = headerFields[.eTag] { return tag.hasPrefix("W/") ? nil : tag }
        guard let modified = headerFields[.lastModified], let modifiedDate = HTTPDate.parse(modified),
            let date = headerFields[.date].flatMap(HTTPDate.parse), date.timeIntervalSince(modifiedDate) >= 60
        else { return nil }
        return modified
    }
}
