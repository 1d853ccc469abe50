public import Foundation
public import HTTPTypes

/// Why a redirect was not followed, and where the request had been sent until then.
public struct RedirectFailure: Sendable, CustomStringConvertible {
    /// What stopped the redirect.
    @nonexhaustive
    public enum Reason: Sendable, Hashable {
        /// More redirects than ``RedirectPolicy/maxRedirects`` allows.
        case tooManyRedirects(limit: Int)
        /// The redirect leads back to a URL already visited with the same method.
        case loop
        /// The redirect leads from `https` to `http`, which the policy refuses.
        case insecureRedirect
        /// The `Location` header is not a usable `http` or `https` URL.
        case invalidLocation(String)
        /// The redirect keeps the body (307 or 308), but the body was a one-shot stream already sent.
        case bodyNotReplayable
    }

    /// What stopped the redirect.
    public let reason: Reason
    /// The request as first sent.
    public let request: RequestSummary
    /// The redirect response that was not followed.
    public let response: HTTPResponse
    /// Every URL visited, the first request's included, then the refused target when there is one.
    public let urls: [URL]

    /// Creates a redirect failure.
    public init(reason: Reason, request: RequestSummary, response: HTTPResponse, urls: [URL]) {
        self.reason = reason
        self.request = request
        self.response = response
        self.urls = urls
    }

    /// `too many redirects (more than 5) for GET http://…: http://a -> http://b -> …`.
    public var description: String {
        let chain = urls.map(\.absoluteString).joined(separator: " -> ")
        return "\(reason) for \(request): \(chain)"
    }
}

extension RedirectFailure.Reason: CustomStringConvertible {
    /// The reason in words: `too many redirects (more than 5)`, `redirect loop`…
    public var description: String {
        switch self {
        case .tooManyRedirects(let limit): "too many redirects (more than \(limit))"
        case .loop: "redirect loop"
        case .insecureRedirect: "redirect from https to http refused"
        case .invalidLocation(let location): "redirect to an unusable location '\(location)'"
        case .bodyNotReplayable: "redirect needs the body again, but it was a one-shot stream"
        }
    }
}
