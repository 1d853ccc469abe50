import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Pagination")
struct PaginationTests {
    @Test("Link headers parse as RFC 8288 says: several links, quoted parameters, relative targets, several relations")
    func webLinks() throws {
        let base = URL(string: "https://api.example.com/v1/items?page=2")!
        let links = WebLink.parse(
            #"<https://api.example.com/v1/items?page=3>; rel="next", </v1/items?page=1>; REL=prev; title="a, \"b\"; c", "#
                + #"<?page=9>;rel="last alternate";rel=ignored, garbage, <items?page=1>; rel=first"#,
            base: base)
        #expect(links.count == 4)
        #expect(links[0].url.absoluteString == "https://api.example.com/v1/items?page=3")
        #expect(links[0].relations == ["next"])
        #expect(links[1].url.absoluteString == "https://api.example.com/v1/items?page=1")
        #expect(links[1].relations == ["prev"])
        #expect(links[1].parameters["title"] == #"a, "b"; c"#)
        #expect(links[2].url.absoluteString == "https://api.example.com/v1/items?page=9")
        #expect(links[2].relations == ["last", "alternate"])
        #expect(links[3].url.absoluteString == "https://api.example.com/v1/items?page=1")
        #expect(WebLink.parse("", base: base).isEmpty)
        #expect(WebLink.parse("no links here", base: base).isEmpty)
    }

    /// Pages of 3 items, linked with `Link: <...>; rel="next"` up to `last`.
    private static func linked(last: Int, loopAt: Int? = nil) -> StubTransport.Handler {
        { request in
            let page = Int(request.query?.split(separator: "=").last ?? "1") ?? 1
            let items = (1...3).map { (page - 1) * 3 + $0 }
            var headers = ["Content-Type": "application/json"]
            if page < last {
                let next = loopAt == page ? 1 : page + 1
                headers["Link"] = "<https://api.example.com/v1/items?page=\(next)>; rel=\"next\""
            }
            return .data(try JSONEncoder().encode(items), headers: headers)
        }
    }

    @Test("pages(following:) walks the Link header to the end; items flattens them")
    func followsLinks() async throws {
        let (client, transport) = makeClient(Self.linked(last: 4))
        var statuses: [Int] = []
        for try await page in client.pages(following: Request<[Int]>(path: "/items")) {
            statuses.append(page.status.code)
        }
        #expect(statuses == [200, 200, 200, 200])
        var items: [Int] = []
        for try await item in client.pages(following: Request<[Int]>(path: "/items")).items { items.append(item) }
        #expect(items == Array(1...12))
        #expect(transport.requests.count == 8)
    }

    @Test("a next link back to an earlier page, or more pages than the cap, fails instead of looping")
    func stopsRunaways() async throws {
        let (client, _) = makeClient(Self.linked(last: 10, loopAt: 3))
        var fetched = 0
        do {
            for try await _ in client.pages(following: Request<[Int]>(path: "/items")) { fetched += 1 }
            Issue.record("a loop was followed")
        } catch NetworkError.decodingFailed(let failure) {
            #expect(failure.reason.contains("already fetched"))
        }
        // 1, 2, 3, then 1 again (first fetched without a query), whose next (page 2) repeats.
        #expect(fetched == 4)

        let (endless, transport) = makeClient(Self.linked(last: 1000))
        do {
            for try await _ in endless.pages(following: Request<[Int]>(path: "/items"), maxPages: 5) {}
            Issue.record("the cap did not stop it")
        } catch NetworkError.decodingFailed(let failure) {
            #expect(failure.reason.contains("more than 5 pages"))
        }
        #expect(transport.requests.count == 5)
    }

    struct CursorPage: Codable, Sendable {
        let items: [String]
        let nextCursor: String?
    }

    @Test("a cursor in the body drives pages(_:next:); MockAPIClient scripts the pages")
    func cursor() async throws {
        let mock = MockAPIClient()
        mock.stub(
            CursorPage.self,
            answers: [
                .value(CursorPage(items: ["a", "b"], nextCursor: "c1")), .value(CursorPage(items: ["c"], nextCursor: nil)),
            ])
        let pages = mock.pages(Request<CursorPage>(path: "/feed")) { page in
            page.value.nextCursor.map { Request(path: "/feed", query: [URLQueryItem(name: "cursor", value: $0)]) }
        }
        var items: [String] = []
        for try await item in pages.items(\.items) { items.append(item) }
        #expect(items == ["a", "b", "c"])
        #expect(mock.calls.map(\.queryItems) == [[], [URLQueryItem(name: "cursor", value: "c1")]])
    }

    @Test("a cursor the server hands out again is a loop, found before the page is asked for twice")
    func cursorLoop() async throws {
        let mock = MockAPIClient()
        mock.stub(
            CursorPage.self,
            answers: [
                .value(CursorPage(items: ["a"], nextCursor: "c1")), .value(CursorPage(items: ["b"], nextCursor: "c2")),
                .value(CursorPage(items: ["c"], nextCursor: "c1")), .value(CursorPage(items: ["never"], nextCursor: nil)),
            ])
        let pages = mock.pages(Request<CursorPage>(path: "/feed")) { page in
            page.value.nextCursor.map { Request(path: "/feed", query: [URLQueryItem(name: "cursor", value: $0)]) }
        }
        var items: [String] = []
        do {
            for try await item in pages.items(\.items) { items.append(item) }
            Issue.record("the loop was followed")
        } catch NetworkError.decodingFailed(let failure) {
            #expect(failure.reason.contains("cursor=c1"), "\(failure.reason)")
        }
        #expect(items == ["a", "b", "c"])
        #expect(mock.calls.count == 3)
    }

    @Test("a page with its size and the total instead of totalPages works out the number of pages")
    func pageSizeAndTotal() throws {
        let decoder = JSONDecoder()
        let limited = try decoder.decode(
            PaginatedResponse<Int>.self, from: Data(#"{"data": [1, 2], "page": 1, "limit": 2, "totalCount": 5}"#.utf8))
        #expect(limited.totalPages == 3)
        #expect(limited.hasNextPage)
        let perPage = try decoder.decode(
            PaginatedResponse<Int>.self, from: Data(#"{"data": [5], "page": 3, "perPage": 2, "totalCount": 5}"#.utf8))
        #expect(perPage.totalPages == 3)
        #expect(!perPage.hasNextPage)
        let empty = try decoder.decode(
            PaginatedResponse<Int>.self, from: Data(#"{"data": [], "page": 1, "pageSize": 20, "totalCount": 0}"#.utf8))
        #expect(empty.totalPages == 0)
        #expect(!empty.hasNextPage)
        #expect(throws: DecodingError.self) {
            try decoder.decode(PaginatedResponse<Int>.self, from: Data(#"{"data": [1], "page": 1, "totalCount": 5}"#.utf8))
        }
    }

    @Test("MockAPIClient scripts Link-header pages with .response(_:status:headers:), and the next URL is the one asked for")
    func mockLinkPages() async throws {
        let mock = MockAPIClient()
        mock.stub(
            [Int].self,
            answers: [
                .response([1, 2], headers: ["Link": "<https://mock.invalid/items?page=2>; rel=\"next\""]),
                .response([3], status: .partialContent, headers: ["Link": "</items?page=1>; rel=\"prev\""]),
            ])
        var statuses: [Int] = []
        var items: [Int] = []
        for try await page in mock.pages(following: Request<[Int]>(path: "/items")) {
            statuses.append(page.status.code)
            items += page.value
        }
        #expect(statuses == [200, 206])
        #expect(items == [1, 2, 3])
        #expect(mock.calls.map { $0.url?.absoluteString } == ["https://mock.invalid/items", "https://mock.invalid/items?page=2"])
    }

    @Test("pages(numbered:) asks for page 2, 3... keeping the other parameters, and stops at totalPages")
    func numbered() async throws {
        let mock = MockAPIClient()
        mock.stub(
            PaginatedResponse<Int>.self,
            answers: [
                .value(PaginatedResponse(data: [1, 2], page: 1, totalPages: 3, totalCount: 5)),
                .value(PaginatedResponse(data: [3, 4], page: 2, totalPages: 3, totalCount: 5)),
                .value(PaginatedResponse(data: [5], page: 3, totalPages: 3, totalCount: 5)),
            ])
        let first = Request<PaginatedResponse<Int>>(path: "/n", query: [URLQueryItem(name: "limit", value: "2")])
        var items: [Int] = []
        for try await item in mock.pages(numbered: first).items(\.data) { items.append(item) }
        #expect(items == [1, 2, 3, 4, 5])
        #expect(mock.calls.map { $0.queryItems.map(\.value) } == [["2"], ["2", "2"], ["2", "3"]])
    }
}
