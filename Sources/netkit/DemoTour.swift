#if DemoAPI
import DemoAPI
import ExampleServices
import Foundation
import Logging
@_spi(Transport) import NetworkingKit

/// What `GET /me` answers.
private struct Profile: Decodable, Sendable {
    let username: String
    let displayName: String
}

/// What `POST /upload/multipart` answers.
private struct UploadedForm: Decodable, Sendable {
    struct Part: Decodable, Sendable {
        let name: String
        let size: Int
    }

    let parts: [Part]
}

/// Progress values, shown as a few percentages.
private final class ProgressSteps: Sendable {
    private let values = LockedState<[TransferProgress]>([])

    var handler: ProgressHandler {
        { [values] progress in values.withLock { $0.append(progress) } }
    }

    /// `12% -> 50% -> 100% (9 events)`.
    var summary: String {
        let all = values.withLock { $0 }
        guard !all.isEmpty else { return "no events" }
        let shown = [all[0], all[all.count / 2], all[all.count - 1]].compactMap { $0.fraction.map { "\(Int($0 * 100))%" } }
        return shown.joined(separator: " -> ") + " (\(all.count) events)"
    }
}

/// The steps of `netkit demo`, each a call an app would make, printed so a person can follow.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoTour {
    let server: DemoServer
    let transport: TransportChoice
    /// Where `-v` sends the library's log lines; `nil` keeps the tour quiet.
    let logger: Logger?

    private var step = 0

    init(server: DemoServer, transport: TransportChoice, logger: Logger? = nil) {
        self.server = server
        self.transport = transport
        self.logger = logger
    }

    /// A client for the tour, logging each call first when `-v` asked for it.
    private func client(_ middlewares: [any Middleware] = []) -> LiveAPIClient {
        LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: transport.transport, middlewares: logging + middlewares))
    }

    private var logging: [any Middleware] {
        guard let logger else { return [] }
        return [LoggingMiddleware(logger: logger, requestLevel: .info, responseLevel: .info)]
    }

    mutating func run() async throws {
        print("NetworkingKit demo")
        print("DemoAPI is running at \(server.baseURL); requests go through \(transport.displayName).")

        // The Pixar service uses the default client: snake_case JSON, ISO 8601 dates.
        let films = FilmsService(client: client())
        // The todos API speaks jsonplaceholder's camelCase, so it has a client of its own.
        let todos = TodosService(
            client: TodosService.makeClient(baseURL: server.baseURL, transport: transport.transport, middlewares: logging))

        section("List the films", "GET /films")
        let all = try await films.films()
        detail("\(all.count) films: " + all.prefix(4).map { "\($0.title) (\($0.releaseYear))" }.joined(separator: ", ") + ", …")

        section("Film detail", "GET /films/up")
        let up = try await films.film(id: "up")
        detail("\(up.title), released \(up.releaseDate.formatted(.iso8601.year().month().day())) by \(up.studio)")
        detail(up.synopsis)

        section("Search", "GET /search?q=toy")
        let results = try await films.search("toy")
        detail("films: " + list(results.films.map(\.title)))
        detail("characters: " + list(results.characters.map(\.name)))

        section("Characters of a film", "GET /films/toy-story/characters")
        let characters = try await films.characters(filmID: "toy-story")
        detail(characters.map { "\($0.name) (voiced by \($0.voiceActor))" }.joined(separator: ", "))

        section("Follow a redirect", "GET /redirect/301?to=/films/coco")
        let plain = client()
        let moved = try await plain.response(
            Request<PixarFilm>(path: "/redirect/301", query: [URLQueryItem(name: "to", value: "/films/coco")]))
        detail("followed by the client's RedirectPolicy to \(moved.value.title) (\(moved.value.releaseYear))")

        section("A flaky route, recovered", "GET /faults/status/503?times=2")
        let resilient = client([RetryMiddleware(policy: RetryPolicy(baseDelay: .milliseconds(100)))])
        let recovered = try await resilient.response(
            Request<Data>(
                path: "/faults/status/503",
                query: [URLQueryItem(name: "key", value: "demo"), URLQueryItem(name: "times", value: "2")]))
        let attempts = server.stats.snapshot.faultAttempts["demo"] ?? 0
        detail("the server failed twice with 503; RetryMiddleware waited and tried again")
        detail("\(attempts) attempts reached the server, the app saw one answer: \(recovered.response.status.code)")

        section("Identical calls in flight, coalesced", "5 x GET /faults/delay/200")
        let coalescing = client([RequestDeduplicator()])
        let answers = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<5 {
                group.addTask { try await coalescing.send(Request<Data>(path: "/faults/delay/200")) }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        let upstream = server.stats.count("GET /faults/delay/{ms}")
        detail("5 callers asked at once; RequestDeduplicator sent \(upstream) request and gave each the answer")
        detail("\(Set(answers).count == 1 ? "all 5 answers are equal" : "the answers differ?")")

        section("Sign in, then an expired token refreshed once for 5 calls", "POST /auth/login, GET /me")
        let auth = AuthManager(client: client())
        let signedIn = client([auth.middleware])
        _ = try await auth.login(username: "woody", password: "andy")
        let me = try await signedIn.send(Request<Profile>(path: "/me"))
        detail("signed in as \(me.displayName); AuthenticationMiddleware adds the Bearer token")
        // The server expires the token behind the app's back; the next calls all get 401 at first.
        try await plain.send(Request<Void>(path: "/auth/expire", method: .post, query: [URLQueryItem(name: "username", value: "woody")]))
        let profiles = try await withThrowingTaskGroup(of: Profile.self) { group in
            for _ in 0..<5 {
                group.addTask { try await signedIn.send(Request<Profile>(path: "/me")) }
            }
            return try await group.reduce(into: [Profile]()) { $0.append($1) }
        }
        detail("5 calls met an expired token: \(server.stats.snapshot.refreshes) refresh, then all \(profiles.count) succeeded")
        try await auth.logout()

        section("An HTTP cache: network, then cache, then a 304", "GET /films/up, /films/coco?max_age=0")
        let cached = client([HTTPCache(storage: MemoryCacheStorage())])
        let before = server.stats.count("GET /films/{id}")
        let network = try await cached.response(PixarAPIEndpoint.filmDetail(id: "up"), as: PixarFilm.self)
        let hit = try await cached.response(PixarAPIEndpoint.filmDetail(id: "up"), as: PixarFilm.self)
        detail("first: \(describe(network.cacheStatus)); second: \(describe(hit.cacheStatus)) (max-age=60, no request sent)")
        let stale = Request<PixarFilm>(path: "/films/coco", query: [URLQueryItem(name: "max_age", value: "0")])
        _ = try await cached.response(stale)
        let revalidated = try await cached.response(stale)
        detail("a stale entry: \(describe(revalidated.cacheStatus)) with If-None-Match, the server answered 304")
        detail("\(server.stats.count("GET /films/{id}") - before) requests reached the server for 4 calls")

        section("Create a todo", "POST /todos")
        let created = try await todos.createTodo(userId: 1, title: "Try NetworkingKit")
        let id = created.id ?? 0
        detail("created #\(id): \"\(created.title)\" for user \(created.userId), completed: \(created.completed)")

        section("Update it", "PUT /todos/\(id)")
        let updated = try await todos.updateTodo(
            TodoDTO(id: id, userId: 1, title: "Try NetworkingKit on Linux", completed: false), id: id)
        detail("now \"\(updated.title)\"")

        section("Mark it done", "PATCH /todos/\(id)")
        let done = try await todos.setCompleted(true, id: id)
        detail("completed: \(done.completed)")

        section("Delete it", "DELETE /todos/\(id)")
        try await todos.deleteTodo(id: id)
        let gone = try await todos.getTodo(withId: id)
        detail(gone == nil ? "deleted; fetching it again gives 404, which the service turns into nil" : "still there?")

        section("A missing film", "GET /films/cars-4")
        do {
            _ = try await films.film(id: "cars-4")
            detail("unexpectedly found")
        } catch let error as NetworkError {
            show(error)
        }

        section("An invalid rating", "POST /films/up/rating {\"rating\": 9}")
        do {
            _ = try await films.rate(filmID: "up", rating: 9)
            detail("unexpectedly accepted")
        } catch let error as NetworkError {
            show(error)
        }

        section("A valid rating", "POST /films/up/rating {\"rating\": 5}")
        let receipt = try await films.rate(filmID: "up", rating: 5, comment: "Adventure is out there!")
        detail("average \(receipt.averageRating) from \(receipt.ratingsCount) rating(s)")

        try await transfers()
        try await liveAnswers()
        try await chat()

        print("")
        print("Done: \(server.stats.snapshot.total) requests reached DemoAPI, all through LiveAPIClient.")
    }

    /// A multipart upload and a download broken midway then resumed, with their progress.
    private mutating func transfers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = client()

        section("A multipart upload, files streamed from disk", "POST /upload/multipart")
        let poster = folder.appendingPathComponent("poster.png")
        try Data(repeating: 0x89, count: 3 * 1024 * 1024).write(to: poster)
        var form = MultipartFormData()
        form.append("Luxo Jr.", name: "title")
        try form.append(fileAt: poster, name: "poster")
        let sent = ProgressSteps()
        let uploaded = try await plain.upload(
            .multipart(form), to: Request<UploadedForm>(path: "/upload/multipart", method: .post),
            progress: sent.handler)
        detail("progress: \(sent.summary)")
        detail(
            "the server read \(uploaded.value.parts.count) parts: "
                + uploaded.value.parts.map { "\($0.name) (\($0.size) bytes)" }.joined(separator: ", "))

        section("A download cut midway, then resumed", "GET /files/8388608?cut_at=3000000")
        let destination = folder.appendingPathComponent("reel.bin")
        let file = Request<Data>(
            path: "/files/8388608", query: [URLQueryItem(name: "seed", value: "1"), URLQueryItem(name: "cut_at", value: "3000000")])
        do {
            _ = try await plain.download(file, to: destination, resumable: true)
        } catch let error as NetworkError {
            detail("first try: \(error.localizedDescription) The partial file is kept.")
        }
        let received = ProgressSteps()
        let resumed = try await plain.download(file, to: destination, resumable: true, progress: received.handler)
        detail(
            "second try asked for the rest (Range + If-Range): \(resumed.response.status.code), continued from byte \(resumed.resumedFrom)")
        detail("progress: \(received.summary); \(resumed.size) bytes at \(destination.lastPathComponent)")
    }

    /// A list read page by page, and an event stream that survives a dropped connection.
    private mutating func liveAnswers() async throws {
        let plain = client()
        section("A list in pages, followed by its Link header", "GET /todos?limit=50")
        var count = 0
        for try await _ in plain.pages(following: Request<[TodoDTO]>(path: "/todos", query: [URLQueryItem(name: "limit", value: "50")]))
            .items
        {
            count += 1
        }
        detail("\(count) todos in \(server.stats.count("GET /todos")) pages, each asked for by the previous page's rel=\"next\"")

        section("A live event stream that survives a drop", "GET /events?count=6&drop_after=3")
        var options = EventStreamOptions()
        options.defaultRetry = .milliseconds(100)
        var ids: [String] = []
        let events = plain.events(
            Request<Data>(
                path: "/events", query: [URLQueryItem(name: "count", value: "6"), URLQueryItem(name: "drop_after", value: "3")]),
            options: options)
        for try await event in events { ids.append(event.id) }
        // What the client told the server on each connection, as the server saw it.
        let resumedFrom = server.stats.lastEventIDs.filter { !$0.isEmpty }.map { "Last-Event-ID: \($0)" }
        detail("events \(ids.joined(separator: ", ")): the server dropped the connection after 3; the client reconnected")
        detail(
            "with \(resumedFrom.first ?? "no Last-Event-ID") and got the rest, then a 204 ended the stream (\(server.stats.count("GET /events")) connections)"
        )
    }

    /// A chat room on WebSocket: two people, each message to both.
    private mutating func chat() async throws {
        // AsyncHTTPClient speaks no WebSocket, nor does URLSession on Linux: NIOTransport does everywhere.
        var chatTransport = transport
        #if canImport(FoundationNetworking)
        if transport != .nio { chatTransport = .nio }
        #else
        if transport == .ahc { chatTransport = .nio }
        #endif
        section("A WebSocket chat room, two people in it", "GET /ws/room, upgraded, over \(chatTransport.displayName)")
        let chatClient = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: server.baseURL, transport: chatTransport.transport, middlewares: logging))
        let alice = try await chatClient.webSocket(Request<Void>(path: "/ws/room"))
        let bob = try await chatClient.webSocket(Request<Void>(path: "/ws/room"))
        var aliceHears = alice.messages.makeAsyncIterator()
        var bobHears = bob.messages.makeAsyncIterator()
        // Each is in the room once the room has sent them their own first message.
        try await alice.send(.text("alice joined"))
        _ = try await Self.next(.text("alice joined"), from: &aliceHears)
        try await bob.send(.text("bob joined"))
        _ = try await Self.next(.text("bob joined"), from: &bobHears)
        try await alice.send(.text("Hi Bob! Dinner at Pizza Planet?"))
        let heard = try await Self.next(.text("Hi Bob! Dinner at Pizza Planet?"), from: &bobHears)
        detail("alice -> room: \"Hi Bob! Dinner at Pizza Planet?\"; bob heard \(heard.map { "\"\($0)\"" } ?? "nothing")")
        try await bob.send(.text("To infinity, and beyond!"))
        let answer = try await Self.next(.text("To infinity, and beyond!"), from: &aliceHears)
        detail("bob -> room: \"To infinity, and beyond!\"; alice heard \(answer.map { "\"\($0)\"" } ?? "nothing")")
        await alice.close()
        await bob.close(code: .goingAway, reason: "off to dinner")
        detail("both closed: alice with \(alice.closeFrame?.description ?? "no answer"), bob with 1001 \"off to dinner\"")
    }

    /// The text of the first message equal to `wanted`, reading at most 10 messages.
    private static func next(
        _ wanted: WebSocketMessage, from messages: inout WebSocketConnection.Messages.AsyncIterator
    ) async throws -> String? {
        for _ in 0..<10 {
            guard let message = try await messages.next() else { return nil }
            if message == wanted, case .text(let text) = message { return text }
        }
        return nil
    }

    private mutating func section(_ title: String, _ call: String) {
        step += 1
        print("")
        print("\(step). \(title)  [\(call)]")
    }

    private func describe(_ status: CacheStatus?) -> String {
        switch status {
        case .hit: "from the cache"
        case .miss: "from the network"
        case .revalidated: "revalidated"
        case .stale: "stale from the cache"
        case nil: "not cached"
        }
    }

    private func list(_ names: [String]) -> String {
        names.isEmpty ? "(none)" : names.joined(separator: ", ")
    }

    private func detail(_ text: String) {
        print("   " + text)
    }

    /// What an app would show (`localizedDescription`) and what a developer would log.
    private func show(_ error: NetworkError) {
        // The case's name, as a `catch NetworkError.notFound` would match it.
        let caseName = Mirror(reflecting: error).children.first?.label ?? String(describing: error)
        detail("status \(error.statusCode.map(String.init) ?? "none") -> NetworkError.\(caseName)")
        detail("user sees: \"\(error.localizedDescription.replacingOccurrences(of: "\n", with: "; "))\"")
    }
}
#endif
