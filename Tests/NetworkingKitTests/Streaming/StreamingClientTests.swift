import Foundation
import HTTPTypes
import NetworkingKitTesting
import Testing

@_spi(Transport) @testable import NetworkingKit

@Suite("events() and lines()")
struct StreamingClientTests {
    @Test("a dropped stream reconnects after the server's retry with Last-Event-ID, and a 204 ends it")
    func reconnects() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { request in
            switch request.header("Last-Event-ID") {
            case nil: return EventStreamStubs.eventStream("retry: 750\nid: 1\ndata: one\n\nid: 2\ndata: two\n\ndata: cut", cutShort: true)
            case "2": return EventStreamStubs.eventStream("id: 3\ndata: three\n\n")
            default: return .status(.noContent)
            }
        }
        var received: [ServerSentEvent] = []
        for try await event in client.events(Request<Data>(path: "/feed"), options: EventStreamStubs.options(clock)) {
            received.append(event)
        }
        #expect(received.map(\.data) == ["one", "two", "three"])
        #expect(received.map(\.id) == ["1", "2", "3"])
        #expect(received.first?.retry == 750)
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "2", "3"])
        #expect(transport.requests.allSatisfy { $0.header("Accept") == "text/event-stream" })
        #expect(clock.sleeps == [.milliseconds(750), .milliseconds(750)])
    }

    @Test("reconnections that bring no event back off, doubling, and stop at the limit with the last error")
    func backsOff() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { _ in EventStreamStubs.eventStream(": nothing yet\n", cutShort: true) }
        var options = EventStreamStubs.options(clock)
        options.maxReconnects = 3
        options.defaultRetry = .seconds(1)
        do {
            for try await _ in client.events(Request<Data>(path: "/feed"), options: options) {}
            Issue.record("the stream never gave up")
        } catch NetworkError.transport(let failure) {
            #expect(failure.kind == .truncatedBody)
        }
        #expect(transport.requests.count == 4)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test("the jitter puts each reconnection wait between half and all of its value, doubling up to maxRetry")
    func jitter() {
        var options = EventStreamOptions()
        options.maxRetry = .seconds(10)
        options.minRetry = .zero
        for (random, first) in [(0.0, Duration.milliseconds(1500)), (0.5, .milliseconds(2250)), (1.0, .seconds(3))] {
            options.random = { random }
            #expect(options.delay(attempt: 1, serverRetry: nil) == first, "random \(random)")
            // 3 s doubled twice is 12 s, capped at 10 s: between 5 and 10 s.
            #expect(options.delay(attempt: 3, serverRetry: nil) == .seconds(5) + .seconds(5) * random, "random \(random)")
            // The server's retry replaces the default.
            #expect(options.delay(attempt: 1, serverRetry: 200) == .milliseconds(100) + .milliseconds(100) * random)
        }
        // Out of range values are clamped: never less than half, never more than the whole.
        options.random = { -3 }
        #expect(options.delay(attempt: 1, serverRetry: 1000) == .milliseconds(500))
        options.random = { 7 }
        #expect(options.delay(attempt: 1, serverRetry: 1000) == .seconds(1))
    }

    @Test("a server's retry: 0 (or 1) waits minRetry at the least, after the jitter too, and failed reconnections still double it")
    func retryFloor() async throws {
        var options = EventStreamOptions()
        options.random = { 0 }
        #expect(options.minRetry == .milliseconds(500))
        #expect(options.delay(attempt: 1, serverRetry: 0) == .milliseconds(500))
        #expect(options.delay(attempt: 1, serverRetry: 1) == .milliseconds(500))
        #expect(options.delay(attempt: 3, serverRetry: 0) == .seconds(1))

        // A server that answers each connection with retry: 0, an event and a close: each
        // reconnection waits the floor, never nothing.
        let clock = ImmediateClock()
        let connections = LockedState(0)
        let (client, _) = makeClient { _ in
            let count = connections.withLock { value -> Int in
                value += 1
                return value
            }
            return count > 20 ? .status(.noContent) : EventStreamStubs.eventStream("retry: 0\ndata: \(count)\n\n")
        }
        var events = 0
        for try await _ in client.events(Request<Data>(path: "/feed"), options: EventStreamStubs.options(clock)) { events += 1 }
        #expect(events == 20)
        #expect(clock.sleeps.count == 20)
        #expect(clock.sleeps.allSatisfy { $0 >= .milliseconds(500) })
    }

    @Test("an id holding a control character is ignored, as one with NUL is: the stream reconnects with the last good id")
    func controlCharacterInID() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { request in
            switch request.header("Last-Event-ID") {
            case nil:
                EventStreamStubs.eventStream("id: 1\ndata: one\n\nid: 2\u{1}x\ndata: two\n\nid: 3\u{7F}\ndata: three\n\n", cutShort: true)
            case "1": EventStreamStubs.eventStream("id: 4\ndata: four\n\n")
            default: .status(.noContent)
            }
        }
        var received: [String] = []
        for try await event in client.events(Request<Data>(path: "/feed"), options: EventStreamStubs.options(clock)) {
            received.append(event.data)
        }
        #expect(received == ["one", "two", "three", "four"])
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "1", "4"])
    }

    @Test(
        "EventStreamOptions.lastEventID is sent from the first connection on, until an event brings another; one with a control character is not sent"
    )
    func startingID() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { request in
            switch request.header("Last-Event-ID") {
            case "41": EventStreamStubs.eventStream("id: 42\ndata: forty-two\n\n", cutShort: true)
            default: .status(.noContent)
            }
        }
        var options = EventStreamStubs.options(clock)
        options.lastEventID = "41"
        var received: [String] = []
        for try await event in client.events(Request<Data>(path: "/feed"), options: options) { received.append(event.id) }
        #expect(received == ["42"])
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == ["41", "42"])

        options.lastEventID = "4\u{1}1"
        for try await _ in client.events(Request<Data>(path: "/feed"), options: options) {}
        #expect(transport.requests.last?.header("Last-Event-ID") == nil)
    }

    @Test("a non-2xx answer or another content type ends the stream with an error, without reconnecting")
    func failures() async throws {
        let (client, transport) = makeClient { request in
            request.path.hasSuffix("/missing") ? .json(#"{"message":"no feed"}"#, status: .notFound) : .text("hello")
        }
        do {
            for try await _ in client.events(Request<Data>(path: "/missing")) {}
            Issue.record("a 404 streamed")
        } catch NetworkError.notFound {}
        do {
            for try await _ in client.events(Request<Data>(path: "/text")) {}
            Issue.record("text/plain streamed")
        } catch NetworkError.decodingFailed(let failure) {
            #expect(failure.reason.contains("not text/event-stream"))
        }
        #expect(transport.requests.count == 2)
    }

    @Test("an event over the limit ends the stream with responseTooLarge")
    func tooLarge() async throws {
        let (client, _) = makeClient { _ in EventStreamStubs.eventStream("data: " + String(repeating: "x", count: 5000) + "\n\n") }
        var options = EventStreamOptions()
        options.maxEventSize = 1000
        do {
            for try await _ in client.events(Request<Data>(path: "/feed"), options: options) {}
            Issue.record("a huge event was accepted")
        } catch NetworkError.responseTooLarge(let limit, _) {
            #expect(limit == 1000)
        }
    }

    struct Item: Decodable, Sendable, Equatable {
        let id: Int
    }

    @Test("JSON lines decode one per line, CRLF and blank lines included, with the client's decoder")
    func jsonLines() async throws {
        let (client, _) = makeClient { _ in .text("{\"id\":1}\r\n\n{\"id\":2}\n{\"id\":3}", contentType: "application/x-ndjson") }
        var items: [Item] = []
        for try await item in client.lines(Request<Data>(path: "/items"), as: Item.self) {
            items.append(item)
        }
        #expect(items == [Item(id: 1), Item(id: 2), Item(id: 3)])
    }

    @Test("a bad line is a decoding error naming its line number; a line over the limit is responseTooLarge")
    func jsonLineErrors() async throws {
        let (client, _) = makeClient { request in
            request.path.hasSuffix("/bad") ? .text("{\"id\":1}\n{\"id\":\"two\"}\n") : .text(String(repeating: "1", count: 300))
        }
        var seen: [Item] = []
        do {
            for try await item in client.lines(Request<Data>(path: "/bad"), as: Item.self) { seen.append(item) }
            Issue.record("a bad line decoded")
        } catch NetworkError.decodingFailed(let failure) {
            #expect(failure.reason.hasPrefix("line 2:"))
            #expect(failure.codingPath == "id")
        }
        #expect(seen == [Item(id: 1)])
        do {
            for try await _ in client.lines(Request<Data>(path: "/long"), as: Item.self, maxLineLength: 100) {}
            Issue.record("a long line was accepted")
        } catch NetworkError.responseTooLarge(let limit, _) {
            #expect(limit == 100)
        }
    }
}
