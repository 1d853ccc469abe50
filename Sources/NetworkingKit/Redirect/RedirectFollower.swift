import Foundation
import HTTPTypes
import Logging

/// The client's redirect step, between the middleware chain and the transport: it sends a request
/// and follows the redirects it gets by ``RedirectPolicy``, so middlewares see only final answers
/// and every transport follows the same rules.
struct RedirectFollower: Sendable {
    let transport: any HTTPTransport

    /// `url` cut before its query and fragment, for a log line.
    static func withoutQuery(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(URL)" }
        let hadQuery = components.query != nil || components.fragment != nil
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return (components.string ?? "(URL)") + (hadQuery ? "?…" : "")
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        // The timeout covers the request and all its hops: each hop gets what is left of it.
        let deadline = context.options.timeout.map { ContinuousClock.now + $0 }
        var (response, responseBody) = try await transport.send(request, body: body, context: context)
        let policy = context.options.redirectPolicy.resolved(against: .default)
        context.redirectTrace.record(request)
        guard policy.maxRedirects > 0, Self.isRedirect(response.status), let firstURL = request.url else {
            return (response, responseBody)
        }

        var current = request
        var currentBody = body
        var currentURL = firstURL
        var urls = [firstURL]
        var visited: Set<Visit> = [Visit(request)]
        var credentialsRemoved = false

        while Self.isRedirect(response.status), let location = response.headerFields[.location] {
            func failure(_ reason: RedirectFailure.Reason, target: URL? = nil) -> NetworkError {
                .redirectFailed(
                    RedirectFailure(
                        reason: reason, request: RequestSummary(request), response: response,
                        urls: urls + (target.map { [$0] } ?? [])))
            }
            guard urls.count <= policy.maxRedirects else {
                throw failure(.tooManyRedirects(limit: policy.maxRedirects))
            }
            guard let target = Self.resolve(location, against: currentURL) else {
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
            // Once removed, credentials stay removed, even if a later hop comes back to the first origin.
            if credentialsRemoved || Origin(currentURL) != Origin(target) {
                for name in policy.headersRemovedAcrossOrigins { next.headerFields[name] = nil }
                credentialsRemoved = true
            }
            guard visited.insert(Visit(next)).inserted else {
                throw failure(.loop, target: target)
            }

            context.logger.debug(
                "Following redirect",
                metadata: [
                    "http.status": "\(response.status.code)", "http.method": "\(next.method.rawValue)",
                    // Without its query and fragment: with no LoggingMiddleware to redact the
                    // line, a token in the target (`?code=`, `#access_token=`) would be logged.
                    "url": "\(Self.withoutQuery(target))", "hop": "\(urls.count)",
                ])
            await HTTPBody.discard(responseBody)
            var hopContext = context
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { throw NetworkError.timeout(RequestSummary(request)) }
                hopContext.options.timeout = remaining
            }
            (response, responseBody) = try await transport.send(next, body: nextBody, context: hopContext)
            current = next
            currentBody = nextBody
            currentURL = target
            urls.append(target)
            context.redirectTrace.record(urls)
        }
        return (response, responseBody)
    }

    /// The statuses that are followed; 300 (a choice for the user), 304 and 305 are not.
    static func isRedirect(_ status: HTTPResponse.Status) -> Bool {
        [301, 302, 303, 307, 308].contains(status.code)
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

    private static let contentHeaders: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding,
    ]

    /// The `Location` value resolved against the URL it came from; only http and https qualify.
    static func resolve(_ location: String, against base: URL) -> URL? {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// A request as loop detection compares it: method, origin (default ports and letter case
    /// normalized) and the path and query as sent; fragments never reach the wire.
    private struct Visit: Hashable {
        let method: HTTPRequest.Method
        let origin: Origin?
        let target: String?

        init(_ request: HTTPRequest) {
            method = request.method
            origin = request.url.map(Origin.init)
            target = request.path
        }
    }
}
