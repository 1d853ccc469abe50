import Foundation

/// A page of a list that carries its items, its number and the totals in the body:
/// `{"data": [...], "page": 2, "totalPages": 5, "totalCount": 97}` (or `total_pages`,
/// `total_count` with a snake_case decoder). APIs that send the page size and the total instead
/// of the number of pages (`{"data": [...], "page": 2, "limit": 20, "totalCount": 97}`, or
/// `perPage`/`pageSize` for `limit`) work too: the number of pages is worked out.
///
/// ```swift
/// let posts = client.pages(numbered: Request<PaginatedResponse<Post>>(path: "/pages/todos"))
/// for try await post in posts.items(\.data) {
///     print(post.title)
/// }
/// ```
public struct PaginatedResponse<Item: Decodable & Sendable>: Decodable, Sendable {
    /// The items of this page.
    public let data: [Item]
    /// This page's number, from 1.
    public let page: Int
    /// How many pages there are.
    public let totalPages: Int
    /// How many items there are in all pages.
    public let totalCount: Int

    /// Creates a page.
    public init(data: [Item], page: Int, totalPages: Int, totalCount: Int) {
        self.data = data
        self.page = page
        self.totalPages = totalPages
        self.totalCount = totalCount
    }

    private enum CodingKeys: String, CodingKey {
        case data, page, totalPages, totalCount, limit, perPage, pageSize
    }

    /// Decodes a page; without `totalPages`, from `totalCount` and the page size (`limit`,
    /// `perPage` or `pageSize`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = try container.decode([Item].self, forKey: .data)
        page = try container.decode(Int.self, forKey: .page)
        totalCount = try container.decode(Int.self, forKey: .totalCount)
        if let totalPages = try container.decodeIfPresent(Int.self, forKey: .totalPages) {
            self.totalPages = totalPages
            return
        }
        let size = try [CodingKeys.limit, .perPage, .pageSize].lazy.compactMap { try container.decodeIfPresent(Int.self, forKey: $0) }.first
        guard let size, size > 0 else {
            throw DecodingError.keyNotFound(
                CodingKeys.totalPages,
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "a page needs totalPages, or totalCount with a page size (limit, perPage or pageSize)"))
        }
        totalPages = totalCount <= 0 ? 0 : (totalCount - 1) / size + 1
    }

    /// Whether a page follows this one.
    public var hasNextPage: Bool { page < totalPages }
}

extension PaginatedResponse: Equatable where Item: Equatable {}

extension APIClient {
    /// The pages of a list numbered in the body (``PaginatedResponse``), asked for with a
    /// `page` query parameter: the first request as given, then `page=2`, `3`... up to `totalPages`.
    /// - Parameters:
    ///   - first: The first page's request; its other query parameters (a `limit`) are kept.
    ///   - parameter: The name of the page number's query parameter.
    ///   - maxPages: The most pages read; a list that goes on past it ends with an error instead of
    ///     looping forever.
    public func pages<Item: Decodable & Sendable>(
        numbered first: Request<PaginatedResponse<Item>>, parameter: String = "page", maxPages: Int = 1000
    ) -> Pages<PaginatedResponse<Item>> {
        pages(first, maxPages: maxPages) { page in
            guard page.value.hasNextPage else { return nil }
            var request = first
            request.query =
                first.query.filter { $0.name != parameter } + [URLQueryItem(name: parameter, value: String(page.value.page + 1))]
            return request
        }
    }
}
