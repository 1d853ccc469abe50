import Foundation

/// The pages of a paginated list, fetched one at a time as they are asked for: the answer of
/// ``APIClient/pages(_:maxPages:next:)`` and ``APIClient/pages(following:maxPages:)``.
///
/// Each page is a ``Response`` (value, status, headers). The sequence ends when there is no next
/// page, and fails with ``NetworkError/decodingFailed(_:)`` when the next page is one already
/// fetched (a server that loops: the same `Link` target, cursor or page number again; seen before
/// it is sent when the next request is written as an earlier one was, after it is fetched when
/// its URL is), or when more than `maxPages` pages would be fetched.
///
/// A next page at another origin than the first (a `Link` to another host, say) is fetched
/// without credentials, as a redirect would be: no `Authorization`, `Cookie` or other sensitive
/// header (``RedirectPolicy/sensitiveHeaders``), whether the first request, the client's default
/// headers or ``AuthenticationMiddleware`` would add them, for that page and every page after
/// it; a next page that would leave https for http fails with ``NetworkError/invalidURL(_:reason:)``.
public struct Pages<Page: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Response<Page>
    public typealias Failure = any Error

    let client: any APIClient
    let first: Request<Page>
    let maxPages: Int
    let next: @Sendable (Response<Page>) throws -> Request<Page>?

    /// Fetches pages; one iterator walks the list once.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: any APIClient
        let maxPages: Int
        let next: @Sendable (Response<Page>) throws -> Request<Page>?
        var upcoming: Request<Page>?
        var fetched = 0
        /// The requests sent, as written (method, path, query), and the URLs they were sent to.
        var seenRequests: Set<String> = []
        var seenURLs: Set<String> = []
        /// Found with the last page handed out, thrown at the next call.
        var pendingFailure: NetworkError?
        /// The origin the first page came from, whose credentials the next pages may carry; once a
        /// page comes from elsewhere, ``Origin/nowhere``.
        var credentialOrigin: Origin?

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> Response<Page>? {
            if let pendingFailure {
                self.pendingFailure = nil
                throw pendingFailure
            }
            guard let request = upcoming else { return nil }
            upcoming = nil
            guard fetched < maxPages else {
                throw Self.failure("more than \(maxPages) pages", request: nil)
            }
            let page = try await client.response(request)
            fetched += 1
            // The first request is the app's: its origin is the credentials'. A page that ends
            // elsewhere (a link or a redirect to another host) leaves them there for good.
            if credentialOrigin == nil, let asked = page.request.url { credentialOrigin = Origin(asked) }
            if let url = page.url, credentialOrigin != Origin(url) { credentialOrigin = .nowhere }
            seenRequests.insert(Self.key(of: request))
            // The same URL written another way (relative, then absolute in a `Link`).
            if let url = page.url?.absoluteString, !seenURLs.insert(url).inserted {
                throw Self.failure("the page at \(url) was already fetched: the pages loop", request: page.request)
            }
            if var following = try next(page) {
                following.options.credentialOrigin = credentialOrigin
                let key = Self.key(of: following)
                if seenRequests.contains(key) {
                    // This page is good; the loop is the next call's failure.
                    pendingFailure = Self.failure("the next page, \(key), was already fetched: the pages loop", request: page.request)
                } else {
                    upcoming = following
                }
            }
            return page
        }

        /// A request as written: method, path and query, in order.
        private static func key(of request: Request<Page>) -> String {
            let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
            return query.isEmpty ? "\(request.method.rawValue) \(request.path)" : "\(request.method.rawValue) \(request.path)?\(query)"
        }

        private static func failure(_ reason: String, request: RequestSummary?) -> NetworkError {
            .decodingFailed(
                DecodingFailure(
                    typeName: String(describing: Page.self), codingPath: "", reason: reason, snippet: "", request: request,
                    underlying: nil))
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, maxPages: maxPages, next: next, upcoming: first)
    }

    /// The items of every page, one after the other, fetching each page when its items are needed.
    public func items<Item: Sendable>(_ itemsOfPage: @escaping @Sendable (Page) -> [Item]) -> PageItems<Page, Item> {
        PageItems(pages: self, itemsOfPage: itemsOfPage)
    }
}

extension Pages where Page: Collection, Page.Element: Sendable {
    /// The items of every page, when a page is a plain list.
    public var items: PageItems<Page, Page.Element> {
        PageItems(pages: self, itemsOfPage: { Array($0) })
    }
}

/// The items of a list's pages, as one sequence; see ``Pages/items(_:)``.
public struct PageItems<Page: Decodable & Sendable, Item: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Item
    public typealias Failure = any Error

    let pages: Pages<Page>
    let itemsOfPage: @Sendable (Page) -> [Item]

    /// Hands out the items of one page, then fetches the next.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pages: Pages<Page>.AsyncIterator
        let itemsOfPage: @Sendable (Page) -> [Item]
        var buffered: ArraySlice<Item> = []

        /// The next item, or `nil` after the last page's last.
        public mutating func next() async throws -> Item? {
            while buffered.isEmpty {
                guard let page = try await pages.next() else { return nil }
                buffered = itemsOfPage(page.value)[...]
            }
            return buffered.popFirst()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: pages.makeAsyncIterator(), itemsOfPage: itemsOfPage)
    }
}

extension APIClient {
    /// The pages of a list, starting with `first`; `next` says which request fetches the page
    /// after a given one (from a cursor in the body, a page number and a total...), `nil` at the end.
    ///
    /// ```swift
    /// // A cursor in the body: {"items": [...], "nextCursor": "abc"}
    /// let pages = client.pages(Request<TodoPage>(path: "/cursor/todos")) { page in
    ///     page.value.nextCursor.map { Request(path: "/cursor/todos", query: [URLQueryItem(name: "cursor", value: $0)]) }
    /// }
    /// for try await todo in pages.items(\.items) {
    ///     print(todo.title)
    /// }
    /// ```
    public func pages<Page: Decodable & Sendable>(
        _ first: Request<Page>, maxPages: Int = 1000, next: @escaping @Sendable (Response<Page>) throws -> Request<Page>?
    ) -> Pages<Page> {
        Pages(client: self, first: first, maxPages: maxPages, next: next)
    }

    /// The pages of a list that links each page to the next with an RFC 8288 `Link` header
    /// (`<...>; rel="next"`), as GitHub's API and DemoAPI's `/todos` do.
    ///
    /// ```swift
    /// for try await todo in client.pages(following: Request<[TodoDTO]>(path: "/todos", query: [URLQueryItem(name: "limit", value: "20")])).items {
    ///     print(todo.title)
    /// }
    /// ```
    public func pages<Page: Decodable & Sendable>(following first: Request<Page>, maxPages: Int = 1000) -> Pages<Page> {
        Pages(client: self, first: first, maxPages: maxPages) { page in
            guard let url = WebLink.first("next", in: page.headerFields, base: page.request.url) else { return nil }
            var request = first
            request.path = url.absoluteString
            request.query = []
            return request
        }
    }
}
