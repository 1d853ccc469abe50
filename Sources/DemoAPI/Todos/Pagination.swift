#if DemoAPI
import Hummingbird

/// `?page=P&limit=L` on `/todos`, and the RFC 8288 `Link` header that lets a client walk the pages.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Pagination: Equatable {
    static let defaultLimit = 10
    static let maxLimit = 100

    var page: Int
    var limit: Int

    /// The requested page, or `nil` when the request names neither `page` nor `limit` (then the whole
    /// list is served). A bad value is a 400 rather than a silent default, so client bugs show.
    static func from(_ request: Request) throws -> Pagination? {
        let page = try request.queryInt("page", in: 1...Int(Int32.max))
        let limit = try request.queryInt("limit", in: 1...maxLimit)
        guard page != nil || limit != nil else { return nil }
        return Pagination(page: page ?? 1, limit: limit ?? defaultLimit)
    }

    /// The items of this page (empty past the last page).
    func slice<Element>(_ items: [Element]) -> ArraySlice<Element> {
        let start = min((page - 1) * limit, items.count)
        return items[start..<min(start + limit, items.count)]
    }

    func lastPage(total: Int) -> Int {
        max(1, (total + limit - 1) / limit)
    }

    /// `<http://host/todos?...&page=1&limit=10>; rel="first", ...` with `first` and `last` always and
    /// `prev`/`next` where they exist. URLs are absolute, built from the request's `Host`, and keep the
    /// request's other query parameters as they were sent.
    func linkHeader(for request: Request, total: Int, fallbackAuthority: String) -> String {
        let authority = request.head.authority ?? fallbackAuthority
        let kept = (request.uri.query ?? "")
            .split(separator: "&")
            .filter { item in
                let name = item.split(separator: "=", maxSplits: 1).first ?? ""
                return name != "page" && name != "limit"
            }
            .map(String.init)
        func url(page: Int) -> String {
            let query = (kept + ["page=\(page)", "limit=\(limit)"]).joined(separator: "&")
            return "http://\(authority)\(request.uri.path)?\(query)"
        }
        let last = lastPage(total: total)
        var links = ["<\(url(page: 1))>; rel=\"first\""]
        if page > 1 {
            links.append("<\(url(page: min(page - 1, last)))>; rel=\"prev\"")
        }
        if page < last {
            links.append("<\(url(page: page + 1))>; rel=\"next\"")
        }
        links.append("<\(url(page: last))>; rel=\"last\"")
        return links.joined(separator: ", ")
    }
}
#endif
