package import Foundation

/// Parses `text/event-stream` bytes into events exactly as the WHATWG HTML standard's
/// "server-sent events" section says (§9.2.6, "interpreting an event stream"), chunk by chunk.
///
/// - Lines end in CR, LF or CRLF, also across chunks; one leading BOM is dropped.
/// - A line starting with `:` is a comment (ignored, or handed to a caller that asks for them); a
///   line without a colon is a field with an empty value;
///   one space after the colon is dropped.
/// - `data` lines are joined with LF; `event` sets the type; `id` sets the last event ID buffer
///   (ignored when it contains NUL), which becomes the last event ID only at the blank line that ends
///   the event, and carries over to later events; `retry` counts only when it is all ASCII digits;
///   other fields are ignored.
/// - An event is dispatched only at a blank line, and only if it has data; an event cut off by the
///   end of the stream is dropped, and so is its `id`: a reconnection must not claim an event that
///   never arrived.
/// - Memory is bounded: a line or an event's data longer than `maxEventSize` bytes throws.
package struct ServerSentEventParser {
    /// An event or a line larger than the limit.
    package struct EventTooLarge: Error {}

    let maxEventSize: Int
    private var splitter: LineSplitter
    private var sawFirstLine = false
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: String?
    private var pendingRetry: Int?

    /// The `id` of the event being read; it becomes `lastEventID` when the event ends.
    private var lastEventIDBuffer = ""
    /// The last event ID, kept across events and reconnections: `Last-Event-ID` on a reconnection.
    private(set) var lastEventID = ""
    /// The reconnection time the stream asked for, in milliseconds.
    private(set) var retry: Int?

    /// - Parameter lastEventID: The ID the stream continues from; one that ``isUsableID(_:)``
    ///   refuses is ignored, as it would be in the stream.
    package init(maxEventSize: Int, lastEventID: String = "") {
        self.maxEventSize = maxEventSize
        self.splitter = LineSplitter(maxLineLength: maxEventSize)
        let startID = Self.isUsableID(lastEventID.utf8) ? lastEventID : ""
        self.lastEventID = startID
        self.lastEventIDBuffer = startID
    }

    /// Whether an event ID may become the last event ID: the standard ignores one with a NUL; one
    /// with any other control character is ignored too, since it could not go back as
    /// `Last-Event-ID` and would end the stream at the next reconnection.
    static func isUsableID(_ bytes: some Sequence<UInt8>) -> Bool {
        !bytes.contains { ControlCharacters.isControl($0, allowingTab: true) }
    }

    /// The events `chunk` completes.
    package mutating func events(in chunk: Data) throws(EventTooLarge) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try forEachEvent(in: chunk) { events.append($0) }
        return events
    }

    /// Calls `body` with each event `chunk` completes, in order, and `comment` (when given) with
    /// the text of each comment line, without its colon and one space after it; lines are read in
    /// place.
    package mutating func forEachEvent(
        in chunk: Data, comment: ((String) -> Void)? = nil, _ body: (ServerSentEvent) -> Void
    ) throws(EventTooLarge) {
        // Moved out (not copied) while its lines are processed, so that its buffer stays unshared.
        var splitter = self.splitter
        self.splitter = LineSplitter(maxLineLength: 0)
        defer { self.splitter = splitter }
        do {
            try splitter.forEachLine(in: chunk) { line in
                var line = line
                if !sawFirstLine {
                    sawFirstLine = true
                    if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = UnsafeBufferPointer(rebasing: line.dropFirst(3)) }
                }
                if let comment, line.first == UInt8(ascii: ":") {
                    let text = line.dropFirst(line.count > 1 && line[1] == UInt8(ascii: " ") ? 2 : 1)
                    comment(String(decoding: UnsafeBufferPointer(rebasing: text), as: UTF8.self))
                    return
                }
                if let event = try process(line) { body(event) }
            }
        } catch {
            throw EventTooLarge()
        }
    }

    /// At the end of the stream: an event not closed by a blank line is dropped, as the standard says.
    package mutating func finish() {
        _ = splitter.finish()
        resetEvent()
        lastEventIDBuffer = lastEventID
        sawFirstLine = false
    }

    private mutating func process(_ line: UnsafeBufferPointer<UInt8>) throws(EventTooLarge) -> ServerSentEvent? {
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let name: UnsafeBufferPointer<UInt8>
        let value: UnsafeBufferPointer<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = UnsafeBufferPointer(rebasing: line[..<colon])
            var valueStart = colon + 1
            if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            value = UnsafeBufferPointer(rebasing: line[valueStart...])
        } else {
            name = line
            value = UnsafeBufferPointer(rebasing: line[line.count...])
        }
        if name.elementsEqual("data".utf8) {
            guard data.count + value.count + 1 <= maxEventSize else { throw EventTooLarge() }
            data.append(contentsOf: value)
            data.append(UInt8(ascii: "\n"))
            hasData = true
        } else if name.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            if Self.isUsableID(value) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy(\.isASCIIDigit),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = milliseconds
                pendingRetry = milliseconds
            }
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { resetEvent() }
        // The standard's first dispatch step, taken even for an event without data.
        lastEventID = lastEventIDBuffer
        guard hasData else { return nil }
        if data.last == UInt8(ascii: "\n") { data.removeLast() }
        let type = eventType.flatMap { $0.isEmpty ? nil : $0 } ?? "message"
        return ServerSentEvent(event: type, data: String(decoding: data, as: UTF8.self), id: lastEventID, retry: pendingRetry)
    }

    private mutating func resetEvent() {
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType = nil
        pendingRetry = nil
    }
}
