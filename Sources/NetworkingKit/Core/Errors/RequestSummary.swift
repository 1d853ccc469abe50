public import Foundation
public import HTTPTypes

/// The method and URL of a request, as errors and logs report it.
///
/// It deliberately leaves out headers and body, so that an error can be logged or shown without
/// carrying a credential along.
public struct RequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// The request method.
    public let method: HTTPRequest.Method
    /// The request URL, when the request has one.
    public var url: URL? {
        switch target {
        case .url(let url):
            url
        case .parts(let scheme, let authority, let path):
            HTTPRequest(method: method, scheme: scheme, authority: authority, path: path).url
        }
    }

    /// Where the request went: a URL, or a request's parts, made into a URL only when asked for,
    /// since most calls succeed and never ask (parsing a URL was a tenth of a call's cost).
    private let target: Target

    private enum Target: Sendable {
        case url(URL?)
        case parts(scheme: String?, authority: String?, path: String?)
    }

    /// Creates a summary.
    public init(method: HTTPRequest.Method, url: URL?) {
        self.method = method
        self.target = .url(url)
    }

    /// Creates the summary of a request.
    public init(_ request: HTTPRequest) {
        self.method = request.method
        self.target = .parts(scheme: request.scheme, authority: request.authority, path: request.path)
    }

    /// `GET https://example.com/films`, the values of query parameters named as secrets commonly
    /// are hidden (``Redaction/default``): an error's description is logged and shown.
    public var description: String {
        "\(method.rawValue) \(url.map { Redaction.default.redact($0).absoluteString } ?? "(no URL)")"
    }

    public static func == (lhs: RequestSummary, rhs: RequestSummary) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
    }
}
