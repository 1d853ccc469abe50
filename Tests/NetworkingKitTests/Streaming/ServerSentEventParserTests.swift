import Foundation
import Testing

@testable import NetworkingKit

@Suite("Server-Sent Events parsing (WHATWG)")
struct ServerSentEventParserTests {
    /// Parses `text` fed in chunks of `chunkSize` bytes, then ends the stream.
    private func parse(_ text: String, chunkSize: Int = .max, maxEventSize: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maxEventSize: maxEventSize)
        let bytes = Array(text.utf8)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            events += try parser.events(in: Data(bytes[start..<end]))
            start = end
        }
        parser.finish()
        return events
    }

    @Test("data lines join with LF; the type defaults to message; an event needs a blank line")
    func basics() throws {
        let events = try parse("data: first\ndata:second\n\nevent: add\ndata: {\"a\":1}\n\ndata: unfinished\n")
        #expect(
            events == [
                ServerSentEvent(data: "first\nsecond"),
                ServerSentEvent(event: "add", data: "{\"a\":1}"),
            ])
    }

    @Test("CR, LF and CRLF all end lines, also when a CRLF is split between chunks", arguments: [1, 2, 3, 1000])
    func lineEnds(chunkSize: Int) throws {
        let events = try parse("data: a\r\rdata: b\n\ndata: c\r\n\r\ndata: d\r\n\n", chunkSize: chunkSize)
        #expect(events.map(\.data) == ["a", "b", "c", "d"])
    }

    @Test("a leading BOM is dropped once; comments are skipped; a field without a colon has an empty value")
    func bomCommentsAndBareFields() throws {
        let events = try parse("\u{FEFF}: a comment\ndata\n\n:another\ndata:  two spaces\n\n")
        #expect(events == [ServerSentEvent(data: ""), ServerSentEvent(data: " two spaces")])
        // A second BOM is part of the field name, so the line is an unknown field.
        #expect(try parse("\u{FEFF}\u{FEFF}data: x\n\ndata: y\n\n").map(\.data) == ["y"])
    }

    @Test("the last event ID carries over; an id with NUL is ignored; an empty id clears it")
    func ids() throws {
        let events = try parse("id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}x\ndata: c\n\nid\ndata: d\n\n")
        #expect(events.map(\.id) == ["1", "1", "1", ""])
    }

    @Test("an id counts only when its event ends: an event cut off by the end of the stream leaves the last event ID as it was")
    func idOfACutOffEvent() throws {
        var parser = ServerSentEventParser(maxEventSize: 1 << 20)
        #expect(try parser.events(in: Data("id: 1\ndata: a\n\nid: 2\ndata: b".utf8)).map(\.id) == ["1"])
        #expect(parser.lastEventID == "1")
        parser.finish()
        #expect(parser.lastEventID == "1")
        // The next connection starts from the committed ID, and an id-only event commits its ID.
        #expect(try parser.events(in: Data("data: c\n\nid: 3\n\n".utf8)).map(\.id) == ["1"])
        #expect(parser.lastEventID == "3")
    }

    @Test("the event type goes back to message after each event")
    func typeResets() throws {
        let events = try parse("event: add\ndata: a\n\ndata: b\n\nevent:\ndata: c\n\n")
        #expect(events.map(\.event) == ["add", "message", "message"])
    }

    @Test("retry counts only when all ASCII digits")
    func retry() throws {
        var parser = ServerSentEventParser(maxEventSize: 1 << 20)
        var events = try parser.events(in: Data("retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\nretry: -1\n\nretry:\n\n".utf8))
        #expect(events.map(\.retry) == [1500, nil])
        #expect(parser.retry == 1500)
        events = try parser.events(in: Data("retry: 20\n\n".utf8))
        #expect(events.isEmpty)
        #expect(parser.retry == 20)
    }

    @Test("an event whose data grows past the limit, or a line past it, throws instead of growing")
    func bounded() throws {
        #expect(throws: ServerSentEventParser.EventTooLarge.self) {
            _ = try parse(String(repeating: "data: 0123456789\n", count: 20), chunkSize: 7, maxEventSize: 100)
        }
        #expect(throws: ServerSentEventParser.EventTooLarge.self) {
            _ = try parse("data: " + String(repeating: "x", count: 200), chunkSize: 16, maxEventSize: 100)
        }
        #expect(try parse("data: " + String(repeating: "x", count: 50) + "\n\n", maxEventSize: 100).count == 1)
    }

    @Test("invalid UTF-8 is replaced, not fatal; unknown fields are ignored")
    func decoding() throws {
        var parser = ServerSentEventParser(maxEventSize: 1 << 20)
        let events = try parser.events(in: Data([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0x0A, 0x66, 0x6F, 0x6F, 0x3A, 0x31, 0x0A, 0x0A]))
        #expect(events == [ServerSentEvent(data: "\u{FFFD}")])
    }
}
