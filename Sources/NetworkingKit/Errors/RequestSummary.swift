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
    public let url: URL?

    /// Creates a summary.
    public init(method: HTTPRequest.Method, url: URL?) {
        self.method = method
        self.url = url
    }

    /// Creates the summary of a request.
    public init(_ request: HTTPRequest) {
        self.init(method: request.method, url: request.url)
    }

    /// `GET https://example.com/films`.
    public var description: String {
        "\(method.rawValue) \(url?.absoluteString ?? "(no URL)")"
    }
}
