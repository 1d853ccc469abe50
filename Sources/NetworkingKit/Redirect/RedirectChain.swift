import Foundation
import HTTPTypes

/// The redirects of one call so far, and the rules for the next hop (RFC 9110 §15.4, with
/// ``RedirectPolicy``): how many, where to, which method and body, which header fields stay, and
/// whether the chain loops.
struct RedirectChain {
    /// One more request to send, to `url`.
    struct Hop {
        let request: HTTPRequest
        let body: HTTPBody?
        let url: URL
    }

    /// The caller's request, which every failure names.
    private let original: HTTPRequest
    private let policy: RedirectPolicy
    private var current: HTTPRequest
    private var currentBody: HTTPBody?
    private var currentURL: URL
    /// Every URL requested so far, the first included.
    private(set) var urls: [URL]
    private var visited: Set<Visit>
    /// Once removed, credentials stay removed, even if a later hop comes back to the first origin.
    private var credentialsRemoved = false

    init(request: HTTPRequest, url: URL, body: HTTPBody?, policy: RedirectPolicy) {
        original = request
        self.policy = policy
        current = request
        currentBody = body
        currentURL = url
        urls = [url]
        visited = [Visit(request)]
    }

    /// The request that follows `response`'s `location`, or the reason it may not be followed;
    /// `prepare` adjusts it before the loop check (a cookie set on the way makes a request to the
    /// same URL another request), given whether credentials have been removed.
    mutating func nextHop(
        to location: String, after response: HTTPResponse, prepare: (inout HTTPRequest, _ credentialsRemoved: Bool) -> Void = { _, _ in }
    ) throws -> Hop {
        func failure(_ reason: RedirectFailure.Reason, target: URL? = nil) -> NetworkError {
            .redirectFailed(
                RedirectFailure(
                    reason: reason, request: RequestSummary(original), response: response,
                    urls: urls + (target.map { [$0] } ?? [])))
        }
        guard urls.count <= policy.maxRedirects else {
            throw failure(.tooManyRedirects(limit: policy.maxRedirects))
        }
        guard let target = RedirectFollower.resolve(location, against: currentURL) else {
            throw failure(.invalidLocation(location))
        }
        if currentURL.scheme?.lowercased() == "https", target.scheme?.lowercased() == "http",
            !policy.allowsInsecureRedirects
        {
            throw failure(.insecureRedirect, target: target)
        }

        var next = current
        next.url = target
        var nextBody = currentBody
        if Self.becomesGet(current.method, status: response.status) {
            next.method = .get
            nextBody = nil
            // RFC 9110 §15.4: header fields that describe the dropped content go with it.
            for name in Self.contentHeaders { next.headerFields[name] = nil }
        } else if let currentBody, !currentBody.isReplayable {
            throw failure(.bodyNotReplayable, target: target)
        }
        if credentialsRemoved || Origin(currentURL) != Origin(target) {
            for name in policy.headersRemovedAcrossOrigins { next.headerFields[name] = nil }
            // Validators are one origin's: another has no business with them (and a cache's
            // If-None-Match would tell it what the client holds).
            for name in Self.conditionHeaders { next.headerFields[name] = nil }
            credentialsRemoved = true
        }
        prepare(&next, credentialsRemoved)
        guard visited.insert(Visit(next)).inserted else {
            throw failure(.loop, target: target)
        }
        return Hop(request: next, body: nextBody, url: target)
    }

    /// Records that `hop` was sent.
    mutating func advance(to hop: Hop) {
        current = hop.request
        currentBody = hop.body
        currentURL = hop.url
        urls.append(hop.url)
    }

    /// RFC 9110 §15.4: user agents turn POST into GET on 301 and 302 (historic, and what every
    /// browser does); 303 means "see other", fetched with GET whatever the method, except HEAD.
    private static func becomesGet(_ method: HTTPRequest.Method, status: HTTPResponse.Status) -> Bool {
        switch status.code {
        case 301, 302: method == .post
        case 303: method != .head && method != .get
        default: false
        }
    }

    private static let conditionHeaders: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange]

    private static let contentHeaders: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding,
    ]

    /// A request as loop detection compares it: method, origin (default ports and letter case
    /// normalized), the path and query as sent (fragments never reach the wire), and the cookies:
    /// a server that sets a cookie and sends the client back to the same URL is no loop.
    private struct Visit: Hashable {
        let method: HTTPRequest.Method
        let origin: Origin?
        let target: String?
        let cookie: String?

        init(_ request: HTTPRequest) {
            method = request.method
            origin = request.url.map(Origin.init)
            target = request.path
            cookie = request.headerFields[.cookie]
        }
    }
}
