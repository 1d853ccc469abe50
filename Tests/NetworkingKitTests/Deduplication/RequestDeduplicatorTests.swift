import Foundation
import HTTPTypes
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// What is shared and what is not. Every transport call is held at a ``TransportGate`` until the
/// test has seen all its callers wait, so "in flight at the same time" is certain, not timed.
@Suite("RequestDeduplicator: sharing", .timeLimit(.minutes(5)))
struct RequestDeduplicatorTests {
    private let films = Request<Data>(path: "/films")
    private let answer = Data("Toy Story".utf8)

    @Test("identical GETs in flight share one transport call, and each caller reads its own body")
    func identicalGETsShareOneCall() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            // A body readable once: handing the same one to two callers would fail the second.
            return StubResponse(headers: ["Content-Type": "text/plain"], body: singleReadBody("Toy Story"))
        }
        let callers = (0..<5).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 5 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers {
            #expect(try await caller.value == answer)
        }
        #expect(transport.requests.count == 1)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test("a call nobody joined ends with its head: its caller gets the body unread, and a later caller makes a new call")
    func unsharedCallStreams() async throws {
        let deduplicator = RequestDeduplicator()
        let calls = Counter()
        let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/films")
        let context = RequestContext(
            options: .default, requestID: "test", logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let body = try await deduplicator.intercept(request, body: nil, context: context) { _, _, _ in
            calls.increment()
            return HTTPAnswer(HTTPResponse(status: .ok), body: singleReadBody("Toy Story"))
        }.body
        // Read into memory, it would be a body that can be read again.
        #expect(body?.iterationBehavior == .single)
        #expect(deduplicator.inFlightCount == 0)
        #expect(try await body?.collect(upTo: 100) == answer)
        _ = try await deduplicator.intercept(request, body: nil, context: context) { _, _, _ in
            calls.increment()
            return HTTPAnswer(HTTPResponse(status: .ok))
        }
        #expect(calls.value == 2)
    }

    @Test("HEAD requests share a call too, but never with a GET")
    func headSharedApartFromGet() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { request in
            await gate.wait()
            return request.method == .head ? .status(.ok) : .text("Toy Story")
        }
        let heads = (0..<3).map { _ in Task { try await client.send(Request<Void>(path: "/films", method: .head)) } }
        let gets = (0..<2).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 5 && gate.waitingCount == 2 }
        gate.open()
        for head in heads { try await head.value }
        for get in gets { #expect(try await get.value == answer) }
        #expect(transport.requests.map(\.method.rawValue).sorted() == ["GET", "HEAD"])
    }

    @Test("requests with different credentials never share a call, and each gets its own answer")
    func differentAuthorizationIsSeparate() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { request in
            await gate.wait()
            return .text("answer for \(request.header("Authorization") ?? "nobody")")
        }
        func call(as token: String) -> Task<Data, any Error> {
            Task { try await client.send(Request<Data>(path: "/me", headers: ["Authorization": "Bearer \(token)"])) }
        }
        let alice = (0..<3).map { _ in call(as: "alice") }
        let bob = (0..<3).map { _ in call(as: "bob") }
        await waitUntil { deduplicator.waiterCount == 6 && gate.waitingCount == 2 }
        gate.open()
        for caller in alice { #expect(try await caller.value == Data("answer for Bearer alice".utf8)) }
        for caller in bob { #expect(try await caller.value == Data("answer for Bearer bob".utf8)) }
        #expect(transport.requests.compactMap { $0.header("Authorization") }.sorted() == ["Bearer alice", "Bearer bob"])
    }

    @Test(
        "requests that differ in a header that can change the answer never share a call",
        arguments: ["Accept", "Accept-Language", "X-API-Key", "Cookie", "Range"])
    func differentHeaderIsSeparate(header: String) async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { request in
            await gate.wait()
            return .text(request.header(header) ?? "none")
        }
        let callers = ["a", "a", "b", "b"].map { value in
            Task { try await client.send(Request<Data>(path: "/films", headers: [header: value])) }
        }
        await waitUntil { deduplicator.waiterCount == 4 && gate.waitingCount == 2 }
        gate.open()
        let answers = try await [callers[0].value, callers[1].value, callers[2].value, callers[3].value]
        #expect(answers == ["a", "a", "b", "b"].map { Data($0.utf8) })
        #expect(transport.requests.count == 2)
    }

    @Test("per-call ids (X-Request-ID, traceparent) do not stop requests from sharing a call")
    func ignoredHeadersStillShare() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            return .text("Toy Story")
        }
        let callers = (0..<3).map { index in
            Task {
                try await client.send(
                    Request<Data>(
                        path: "/films",
                        headers: ["X-Request-ID": "call-\(index)", "traceparent": "00-\(index)-01-01"]))
            }
        }
        await waitUntil { deduplicator.waiterCount == 3 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers { #expect(try await caller.value == answer) }
        #expect(transport.requests.count == 1)
    }

    @Test(
        "the same fields in another order share a call; a repeated field's values in another order do not",
        arguments: [(repeated: false, calls: 1), (repeated: true, calls: 2)])
    func fieldOrder(repeated: Bool, calls: Int) async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [FieldOrder(repeated: repeated), deduplicator]) { _ in
            await gate.wait()
            return .text("Toy Story")
        }
        let callers = (0..<2).map { _ in Task { try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 2 && gate.waitingCount == calls }
        gate.open()
        for caller in callers { #expect(try await caller.value == answer) }
        #expect(transport.requests.count == calls)
    }

    /// Adds two fields, in reverse order on every other call: two names, or one name twice.
    private struct FieldOrder: Middleware {
        let repeated: Bool
        private let turns = LockedState(0)

        init(repeated: Bool) {
            self.repeated = repeated
        }

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
        ) async throws -> HTTPAnswer {
            let turn = turns.withLock { turn in
                defer { turn += 1 }
                return turn
            }
            let names = repeated ? ["X-Tag", "X-Tag"] : ["X-A", "X-B"]
            var fields = zip(names, ["1", "2"]).compactMap { name, value in
                HTTPField.Name(name).map { HTTPField(name: $0, value: value) }
            }
            if !turn.isMultiple(of: 2) { fields.reverse() }
            var request = request
            request.headerFields.append(contentsOf: fields)
            return try await next(request, body, context)
        }
    }

    /// Requests that always go down the chain on their own.
    enum Unshared: String, CaseIterable, Sendable {
        case post, put, delete, getWithBody, noCache, noStore, maxAgeZero, pragmaNoCache, optedOut

        var request: Request<Data> {
            switch self {
            case .post: Request(path: "/todos", method: .post, body: .json(["title": "Buy milk"]))
            case .put: Request(path: "/todos/1", method: .put, body: .json(["title": "Buy milk"]))
            case .delete: Request(path: "/todos/1", method: .delete)
            case .getWithBody: Request(path: "/films", body: .text("filter"))
            case .noCache: Request(path: "/films", headers: ["Cache-Control": "no-cache"])
            case .noStore: Request(path: "/films", headers: ["Cache-Control": "private, NO-STORE"])
            case .maxAgeZero: Request(path: "/films", headers: ["Cache-Control": "max-age=0"])
            case .pragmaNoCache: Request(path: "/films", headers: ["Pragma": "no-cache"])
            case .optedOut:
                Request(
                    path: "/films",
                    options: {
                        var options = RequestOptions()
                        options.allowsDeduplication = false
                        return options
                    }())
            }
        }
    }

    @Test("unsafe methods, bodies, no-cache/no-store and opted-out endpoints are never shared", arguments: Unshared.allCases)
    func neverShared(kind: Unshared) async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            return .text("done")
        }
        let callers = (0..<2).map { _ in Task { try await client.send(kind.request) } }
        await waitUntil { gate.waitingCount == 2 }
        #expect(deduplicator.waiterCount == 0)
        gate.open()
        for caller in callers { #expect(try await caller.value == Data("done".utf8)) }
        #expect(transport.requests.count == 2)
    }

    @Test("a request made after the shared call ended makes a new call")
    func newCallAfterCompletion() async throws {
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in .text("Toy Story") }
        #expect(try await client.send(films) == answer)
        #expect(deduplicator.inFlightCount == 0)
        #expect(try await client.send(films) == answer)
        #expect(transport.requests.count == 2)
    }

    @Test("a transport error reaches every caller of the shared call")
    func errorsAreShared() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            throw NetworkError.transport(TransportFailure(kind: .connectionLost))
        }
        let callers = (0..<3).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 3 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers {
            let error = networkError(of: await caller.result)
            guard case .transport(let failure)? = error else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                continue
            }
            #expect(failure.kind == .connectionLost)
        }
        #expect(transport.requests.count == 1)
    }

    @Test("a failed response is shared with its error body, and each caller gets the same error")
    func failedResponsesAreShared() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            return .json(#"{"message":"gone"}"#, status: .notFound)
        }
        let callers = (0..<3).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 3 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers {
            let error = networkError(of: await caller.result)
            guard case .notFound(let failure)? = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                continue
            }
            #expect(failure.serverMessage == "gone")
        }
        #expect(transport.requests.count == 1)
    }

    @Test("a body over the size limit fails every caller with responseTooLarge", arguments: [true, false])
    func bodyOverLimitFailsEveryone(lengthKnown: Bool) async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeClient(middlewares: [deduplicator], maxResponseBodySize: 8) { _ in
            await gate.wait()
            return StubResponse(body: singleReadBody(String(repeating: "a", count: 100), lengthKnown: lengthKnown))
        }
        let callers = (0..<3).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 3 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers {
            let error = networkError(of: await caller.result)
            guard case .responseTooLarge(let limit, let request)? = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                continue
            }
            #expect(limit == 8)
            #expect(request?.url?.path == "/v1/films")
        }
        #expect(transport.requests.count == 1)
    }

    @Test("callers that take any status share a failed answer whole; a caller that does not is a call of its own")
    func failedAnswerSharedWhole() async throws {
        let gate = TransportGate()
        let deduplicator = RequestDeduplicator()
        let page = String(repeating: "e", count: HTTPFailure.maxBodyCopy * 2)
        let (client, transport) = makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            return StubResponse(status: .badGateway, headers: ["Content-Type": "text/plain"], body: singleReadBody(page))
        }
        var options = RequestOptions()
        options.validatesStatus = false
        let anyStatus = Request<Data>(path: "/films", options: options)
        let takers = (0..<3).map { _ in Task { try await client.response(anyStatus) } }
        let checker = Task { try await client.send(Request<Data>(path: "/films")) }
        await waitUntil { deduplicator.waiterCount == 4 && gate.waitingCount == 2 }
        gate.open()
        for taker in takers {
            let response = try await taker.value
            #expect(response.response.status == .badGateway)
            #expect(response.value.count == page.utf8.count)
        }
        let error = await networkError { _ = try await checker.value }
        #expect(error?.failure?.isBodyTruncated == true)
        #expect(transport.requests.count == 2)
    }

    @Test("the seed's deduplicate(key:operation:) runs the operation once for callers in flight together")
    func seedStyleDeduplicate() async throws {
        let gate = TransportGate()
        let runs = Counter()
        let deduplicator = RequestDeduplicator()
        let callers = (0..<4).map { _ in
            Task {
                try await deduplicator.deduplicate(key: "films") {
                    runs.increment()
                    await gate.wait()
                    return Data("Toy Story".utf8)
                }
            }
        }
        await waitUntil { deduplicator.waiterCount == 4 && gate.waitingCount == 1 }
        gate.open()
        for caller in callers { #expect(try await caller.value == answer) }
        #expect(runs.value == 1)
        #expect(deduplicator.inFlightCount == 0)
    }
}
