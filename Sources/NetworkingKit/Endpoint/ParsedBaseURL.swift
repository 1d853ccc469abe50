import Foundation
import HTTPTypes

/// A client's base URL taken apart once, when the client is made: a request relative to it is
/// then joined from strings, where building a `URL` and having HTTPTypes parse it back cost
/// three URL parses on every call.
struct ParsedBaseURL: Sendable {
    /// The scheme and authority exactly as HTTPTypes reads them from a URL on this base.
    let scheme: String
    let authority: String?
    /// The percent-encoded path and query, as the base URL has them.
    let path: String
    let query: String?

    /// `nil` when `url` is no usable base; a call then takes the full path, which reports why.
    init?(_ url: URL) {
        guard (try? URLBuilder.validate(url)) != nil,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        let head = HTTPRequest(method: .get, url: url)
        guard let scheme = head.scheme else { return nil }
        self.scheme = scheme
        self.authority = head.authority
        self.path = components.percentEncodedPath
        self.query = components.percentEncodedQuery
    }
}
