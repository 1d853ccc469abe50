import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Server-Sent Events and JSON lines against DemoAPI, over every transport.
@Suite("Live answers against DemoAPI", .timeLimit(.minutes(5)))
struct StreamingIntegrationTests {
    struct Item: Decodable, Sendable, Equatable {
        let id: Int
        let title: String
    }

    @Test(
        "an event stream dropped twice midway continues from Last-Event-ID and ends with the server's 204",
        arguments: TransportKind.allCases)
    func events(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            var options = EventStreamOptions()
            options.clock = ImmediateClock()
            let stream = makeClient(server, kind, timeout: .seconds(600)).events(
                Request<Data>(
                    path: "/events",
                    query: [
                        URLQueryItem(name: "count", value: "10"), URLQueryItem(name: "drop_after", value: "4"),
                        URLQueryItem(name: "retry", value: "5"),
                    ]),
                options: options)
            var received: [ServerSentEvent] = []
            for try await event in stream { received.append(event) }
            #expect(received.map(\.id) == (1...10).map(String.init))
            #expect(received.map(\.data) == (1...10).map { "{\"n\":\($0)}" })
            #expect(received.allSatisfy { $0.event == "tick" })
            // 1-4, 5-8, 9-10, then a 204: four connections, each telling the server the last event
            // the client read. The events that reached the client before a cut are read before
            // the cut's error, over both transports, so no reconnection goes back.
            #expect(server.stats.lastEventIDs == ["", "4", "8", "10"])
        }
    }

    @Test("a token that expired while the stream was open is refreshed before the reconnect", arguments: TransportKind.allCases)
    func refreshBeforeReconnect(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            let manager = AuthManager(client: makeClient(server, kind, timeout: .seconds(600)))
            try await manager.login(username: "woody", password: "andy")
            let api = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: server.baseURL, transport: kind.transport, middlewares: [manager.middleware],
                    timeout: .seconds(600)))
            var options = EventStreamOptions()
            options.clock = ImmediateClock()
            let stream = api.events(
                Request<Data>(
                    path: "/events",
                    query: [
                        URLQueryItem(name: "count", value: "6"), URLQueryItem(name: "drop_after", value: "2"),
                        URLQueryItem(name: "auth", value: "required"),
                    ]),
                options: options)
            let iterator = stream.makeAsyncIterator()
            var ids: [String] = []
            for _ in 0..<2 { ids.append(try #require(try await iterator.next()).id) }
            // The first connection is over (dropped after 2 events); the next one must carry a
            // fresh token, or the server refuses it.
            try await makeClient(server, kind).send(
                Request<Void>(path: "/auth/expire", method: .post, query: [URLQueryItem(name: "username", value: "woody")]))
            while let event = try await iterator.next() { ids.append(event.id) }
            #expect(ids == (1...6).map(String.init))
            #expect(server.stats.snapshot.refreshes == 1)
        }
    }

    @Test("cancelling the task that reads an event stream closes the connection, and the server sees it", arguments: TransportKind.allCases)
    func cancellationClosesTheConnection(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            // Two events, then the connection is held open with a comment every 50 ms: only the
            // client can end it, and the server records when a write finds it closed.
            let stream = makeClient(server, kind, timeout: .seconds(600)).events(
                Request<Data>(
                    path: "/events", query: [URLQueryItem(name: "count", value: "2"), URLQueryItem(name: "heartbeat", value: "50")]))
            let (ids, idSink) = AsyncStream.makeStream(of: String.self)
            let reader = Task {
                for try await event in stream { idSink.yield(event.id) }
            }
            var received = ids.makeAsyncIterator()
            #expect(await received.next() == "1")
            #expect(await received.next() == "2")
            reader.cancel()
            let error = await networkError { try await reader.value }
            #expect(error?.isCancelled == true, "got \(String(describing: error))")
            try await server.stats.waitForRequests("CLOSED /events")
            #expect(server.stats.count("GET /events") == 1)
        }
    }

    @Test("JSON lines arrive decoded, 10,000 of them", arguments: TransportKind.allCases)
    func jsonLines(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            var count = 0
            for try await item in makeClient(server, kind, timeout: .seconds(600)).lines(
                Request<Data>(path: "/ndjson", query: [URLQueryItem(name: "count", value: "10000")]), as: Item.self)
            {
                count += 1
                #expect(item == Item(id: count, title: "Item \(count)"))
            }
            #expect(count == 10_000)
        }
    }
}

/// Link-header pagination against DemoAPI's `/todos`, over every transport.
@Suite("Pages against DemoAPI", .timeLimit(.minutes(5)))
struct PagesIntegrationTests {
    struct Todo: Decodable, Sendable {
        let id: Int
    }

    @Test("pages(following:) walks /todos by its Link header to the last page", arguments: TransportKind.allCases)
    func todos(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind, timeout: .seconds(600))
            var ids: [Int] = []
            for try await todo in client.pages(
                following: Request<[Todo]>(path: "/todos", query: [URLQueryItem(name: "limit", value: "30")])
            ).items {
                ids.append(todo.id)
            }
            #expect(ids == Array(1...ids.count))
            #expect(ids.count >= 100)
            #expect(server.stats.count("GET /todos") == (ids.count + 29) / 30)
        }
    }

    struct Todo2: Decodable, Sendable, Equatable {
        let id: Int
        let title: String
    }

    struct CursorPage: Decodable, Sendable {
        let items: [Todo2]
        let nextCursor: String?
    }

    @Test("all todos by a page number in the body and by a cursor, page counts checked at the server", arguments: TransportKind.allCases)
    func numberedAndCursor(_ kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind, timeout: .seconds(600))
            let all = try await client.send(Request<[Todo2]>(path: "/todos"))
            let limit = URLQueryItem(name: "limit", value: "25")

            var numbered: [Todo2] = []
            for try await todo in client.pages(numbered: Request<PaginatedResponse<Todo2>>(path: "/pages/todos", query: [limit])).items(
                \.data)
            {
                numbered.append(todo)
            }
            #expect(numbered == all)
            #expect(server.stats.count("GET /pages/todos") == (all.count + 24) / 25)

            let cursorPages = client.pages(Request<CursorPage>(path: "/cursor/todos", query: [limit])) { page in
                page.value.nextCursor.map { Request(path: "/cursor/todos", query: [limit, URLQueryItem(name: "cursor", value: $0)]) }
            }
            var byCursor: [Todo2] = []
            for try await todo in cursorPages.items(\.items) { byCursor.append(todo) }
            #expect(byCursor == all)
            #expect(server.stats.count("GET /cursor/todos") == (all.count + 24) / 25)
        }
    }
}
