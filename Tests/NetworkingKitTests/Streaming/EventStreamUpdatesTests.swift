import Foundation
import HTTPTypes
import NetworkingKitTesting
import Testing

@_spi(Transport) @testable import NetworkingKit

@Suite("events().updates and restart()")
struct EventStreamUpdatesTests {
    /// What an update says, without the response head's details.
    private static func shape(_ update: EventStreamUpdate) -> String {
        switch update {
        case .connected(let response): "connected \(response.status.code)"
        case .event(let event): "event \(event.id) \(event.data)"
        case .comment(let text): "comment \(text)"
        case .reconnecting(let wait, let reason): "reconnecting after \(wait) \(reason.map(Self.kind) ?? "(closed)")"
        }
    }

    private static func kind(_ error: NetworkError) -> String {
        guard case .transport(let failure) = error else { return "\(error)" }
        return "\(failure.kind)"
    }

    @Test("updates show each connection, comment, event and reconnection in order, and end with the server's 204")
    func updatesInOrder() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { request in
            switch request.header("Last-Event-ID") {
            case nil: EventStreamStubs.eventStream(":hi\n: heartbeat\nretry: 2000\nid: 1\ndata: one\n\n")
            case "1": EventStreamStubs.eventStream("id: 2\ndata: two\n\ndata: cut", cutShort: true)
            default: .status(.noContent)
            }
        }
        var updates: [String] = []
        for try await update in client.events(Request<Data>(path: "/feed"), options: EventStreamStubs.options(clock)).updates {
            updates.append(Self.shape(update))
        }
        #expect(
            updates == [
                "connected 200", "comment hi", "comment heartbeat", "event 1 one", "reconnecting after 2.0 seconds (closed)",
                "connected 200", "event 2 two", "reconnecting after 2.0 seconds truncatedBody",
            ])
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "1", "2"])
        #expect(clock.sleeps == [.seconds(2), .seconds(2)])
    }

    @Test("a reconnection that fails below HTTP is an update too, and the wait doubles")
    func failedReconnection() async throws {
        let clock = ImmediateClock()
        let connections = LockedState(0)
        let (client, _) = makeClient { _ in
            let count = connections.withLock { value -> Int in
                value += 1
                return value
            }
            switch count {
            case 1: return EventStreamStubs.eventStream("data: one\n\n")
            case 2: return .failure(.transport(TransportFailure(kind: .connectionRefused)))
            default: return .status(.noContent)
            }
        }
        var options = EventStreamStubs.options(clock)
        options.defaultRetry = .seconds(1)
        var updates: [String] = []
        for try await update in client.events(Request<Data>(path: "/feed"), options: options).updates {
            updates.append(Self.shape(update))
        }
        #expect(
            updates == [
                "connected 200", "event  one", "reconnecting after 1.0 seconds (closed)",
                "reconnecting after 2.0 seconds connectionRefused",
            ])
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test("restart() after a reconnecting update connects at once, with Last-Event-ID, and the failure count starts again")
    func restartSkipsTheWait() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { request in
            switch request.header("Last-Event-ID") {
            case nil: EventStreamStubs.eventStream("retry: 30000\nid: 7\ndata: seven\n\n")
            case "7": EventStreamStubs.eventStream("id: 8\ndata: eight\n\n")
            default: .status(.noContent)
            }
        }
        let iterator = client.events(Request<Data>(path: "/feed"), options: EventStreamStubs.options(clock)).updates.makeAsyncIterator()
        var updates: [String] = []
        while let update = try await iterator.next() {
            updates.append(Self.shape(update))
            if case .reconnecting = update, updates.count < 4 { iterator.restart() }
        }
        #expect(
            updates == [
                "connected 200", "event 7 seven", "reconnecting after 30.0 seconds (closed)", "connected 200", "event 8 eight",
                "reconnecting after 30.0 seconds (closed)",
            ])
        // The first wait was skipped; only the one after the restart's connection was slept.
        #expect(clock.sleeps == [.seconds(30)])
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "7", "8"])
    }

    @Test("restart() mid-connection drops it, hands out the events already received, and continues from the last one")
    func restartMidConnection() async throws {
        let clock = ImmediateClock()
        let (client, transport) = makeClient { request in
            switch request.header("Last-Event-ID") {
            case nil: EventStreamStubs.eventStream("id: 1\ndata: one\n\nid: 2\ndata: two\n\nid: 3\ndata: thr")
            case "2": EventStreamStubs.eventStream("id: 3\ndata: three\n\n")
            default: .status(.noContent)
            }
        }
        let iterator = client.events(Request<Data>(path: "/feed"), options: EventStreamStubs.options(clock)).makeAsyncIterator()
        var received: [String] = []
        while let event = try await iterator.next() {
            received.append(event.data)
            if event.id == "1" { iterator.restart() }
        }
        #expect(received == ["one", "two", "three"])
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "2", "3"])
        // The restart's connection waited for nothing; the close after "three" waited as usual.
        #expect(clock.sleeps.count == 1)
    }
}
