import Foundation

/// Splits a body that arrives in chunks into lines ending in LF, CR or CRLF (a CR at the end of one
/// chunk and an LF at the start of the next are one line end), holding at most `maxLineLength`
/// bytes of an unfinished line: the one primitive under Server-Sent Events and JSON lines.
///
/// A line that lies inside one chunk is handed over as a view of the chunk's bytes, never copied;
/// only a line cut by a chunk boundary is gathered in a buffer, so framing costs one pass over
/// the bytes.
struct LineSplitter {
    /// A line longer than the limit.
    struct LineTooLong: Error {}

    let maxLineLength: Int
    private var partial: [UInt8] = []
    /// The last chunk ended with a CR, so an LF starting the next one belongs to it.
    private var afterCR = false

    init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    /// Calls `body` with each line `chunk` completes, without its line end. The buffer is valid
    /// only during the call.
    mutating func forEachLine(in chunk: Data, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try chunk.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            if afterCR, index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
            afterCR = false
            var start = index
            while index < bytes.count {
                let byte = bytes[index]
                // One comparison rules out every byte above CR: almost all of them.
                guard byte <= UInt8(ascii: "\r"), byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                    index += 1
                    continue
                }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<index])
                if partial.isEmpty {
                    guard line.count <= maxLineLength else { throw LineTooLong() }
                    try body(line)
                } else {
                    try append(line)
                    try partial.withUnsafeBufferPointer { try body($0) }
                    partial.removeAll(keepingCapacity: true)
                }
                index += 1
                if byte == UInt8(ascii: "\r") {
                    if index < bytes.count {
                        if bytes[index] == UInt8(ascii: "\n") { index += 1 }
                    } else {
                        afterCR = true
                    }
                }
                start = index
            }
            try append(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
    }

    /// What is left when the body ends: an unfinished last line, if any.
    mutating func finish() -> [UInt8]? {
        defer { partial.removeAll() }
        return partial.isEmpty ? nil : partial
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) throws(LineTooLong) {
        guard partial.count + bytes.count <= maxLineLength else { throw LineTooLong() }
        partial.append(contentsOf: bytes)
    }
}
