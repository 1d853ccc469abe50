// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

// The Swift samples of the Streams and pages DocC article, compiled: each sits between
// `article-sample` markers, exactly as in the article, and the test below fails when they differ.

private enum StreamsAndPagesArticleSamples {
    static func events(client: LiveAPIClient) async throws {
        // <article-sample>
        var options = EventStreamOptions()
        options.defaultRetry = .seconds(2)
        options.maxReconnects = 10
        for try await event in client.events(Request<Data>(path: "/feed"), options: options) {
            guard event.event == "tick" else { continue }
            print(event.id, event.data)
        }
        // </article-sample>
    }

    static func cancellation(client: LiveAPIClient) {
        // <article-sample>
        let reader = Task {
            for try await event in client.events(Request<Data>(path: "/feed")) {
                print(event.data)
            }
        }
        // Later, when the screen goes away:
        reader.cancel()
        // </article-sample>
    }

    static func updates(client: LiveAPIClient, networkCameBack: Bool) async throws {
        // <article-sample>
        let updates = client.events(Request<Data>(path: "/events")).updates.makeAsyncIterator()
        while let update = try await updates.next() {
            switch update {
            case .connected(let response): print("live", response.status)
            case .reconnecting(let wait, let reason): print("reconnecting in", wait, reason?.localizedDescription ?? "")
            case .comment: continue  // a heartbeat
            case .event(let event): print(event.data)
            }
            if networkCameBack { updates.restart() }
        }
        // </article-sample>
    }

    static func lines(client: LiveAPIClient) async throws {
        // <article-sample>
        do {
            for try await todo in client.lines(Request<Data>(path: "/todos/export"), as: TodoDTO.self) {
                print(todo.title)
            }
        } catch NetworkError.decodingFailed(let failure) {
            print(failure.reason)  // "line 42: ..."
        }
        // </article-sample>
    }

    static func linkPages(client: LiveAPIClient) async throws {
        // <article-sample>
        let first = Request<[TodoDTO]>(path: "/todos", query: [URLQueryItem(name: "_limit", value: "20")])
        for try await page in client.pages(following: first) {
            print(page.status, page.value.count)
        }
        // </article-sample>
    }

    static func cursorPages(client: LiveAPIClient) async throws {
        // <article-sample>
        struct TodoPage: Decodable, Sendable {
            let items: [TodoDTO]
            let nextCursor: String?
        }

        let pages = client.pages(Request<TodoPage>(path: "/cursor/todos")) { page in
            page.value.nextCursor.map { Request(path: "/cursor/todos", query: [URLQueryItem(name: "cursor", value: $0)]) }
        }
        for try await todo in pages.items(\.items) {
            print(todo.title)
        }
        // </article-sample>
    }

    static func numberedPages(client: LiveAPIClient) async throws {
        // <article-sample>
        let numbered = client.pages(numbered: Request<PaginatedResponse<TodoDTO>>(path: "/pages/todos"), maxPages: 50)
        for try await todo in numbered.items(\.data) {
            print(todo.title)
        }
        // </article-sample>
    }

    static func testing(firstPage: [TodoDTO], secondPage: [TodoDTO]) {
        // <article-sample>
        let mock = MockAPIClient()
        mock.stub([TodoDTO].self, answers: [
            .response(firstPage, headers: ["Link": "<https://api.example.com/todos?page=2>; rel=\"next\""]),
            .value(secondPage),
        ])
        mock.stub(Request<Data>(path: "/feed"), answers: [
            .response(Data("id: 1\ndata: hello\n\n".utf8), headers: ["Content-Type": "text/event-stream"]),
            .response(Data(), status: .noContent),
        ])
        // </article-sample>
    }
}

@Suite("Streams and pages article samples")
struct StreamsAndPagesArticleTests {
    @Test("every Swift sample of StreamsAndPages.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/StreamsAndPages.md", testFile: #filePath, marker: "article-sample")
    }
}
