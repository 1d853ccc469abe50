import Foundation
import HTTPTypes

/// A client's base URL taken apart once, when the client is made: a request relative to it is
/// then joined from strings, where building a `URL` and having HTTPTypes parse it back cost
/// three URL parses on every call.
struct ParsedBaseURL: Sendable {
    /// The scheme and authority as HTTPTypes reads them from a URL assembled on this base.
    let scheme: String
    let authority: String?
    /// The percent-encoded path and query, as the base URL has them.
    let path: String
    let query: String?

    /// `nil` when `url` is no usable base; a call then takes the full path, which reports why.
    init?(_ url: URL) {
        // The scheme and authority of a URL the full path assembled on this base: assembling
        // rewrites some of what the base spelled (a port's leading zeros), and both paths must
        // send the very same request.
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let assembled = try? URLBuilder.url(
                clientBase: url, endpointBase: RequestTarget.clientBaseURL, path: "x", queryItems: nil)
        else { return nil }
        let head = HTTPRequest(method: .get, url: assembled)
        guard let scheme = head.scheme else { return nil }
        self.scheme = scheme
        self.authority = head.authority
        self.path = components.percentEncodedPath
        self.query = components.percentEncodedQuery
    }
}

extension Origin {
    /// The origin of `url`, which the client's requests spell as `base` does.
    init(_ url: URL, spelledAs base: ParsedBaseURL) {
        self.init(url)
        if let authority = base.authority { spelling = (base.scheme, authority) }
    }
}
