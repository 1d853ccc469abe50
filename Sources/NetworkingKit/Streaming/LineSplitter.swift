import Foundation

/// Splits a body that arrives in chunks into lines ending in LF, CR or CRLF (a CR at the end of one
/// chunk and an LF at the start of the next are one line end), holding at most `maxLineLength`
/// bytes of an unfinished line: the one primitive under Server-Sent Events and JSON lines.
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

    /// The lines `chunk` completes, without their line ends.
    mutating func lines(in chunk: Data) throws(LineTooLong) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = chunk.startIndex
        var index = chunk.startIndex
        if afterCR, index < chunk.endIndex, chunk[index] == UInt8(ascii: "\n") {
            index += 1
            start = index
        }
        afterCR = false
        while index < chunk.endIndex {
            let byte = chunk[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                try append(chunk[start..<index])
                lines.append(partial)
                partial.removeAll(keepingCapacity: true)
                index += 1
                if byte == UInt8(ascii: "\r") {
                    if index < chunk.endIndex {
                        if chunk[index] == UInt8(ascii: "\n") { index += 1 }
                    } else {
                        afterCR = true
                    }
                }
                start = index
            } else {
                index += 1
            }
        }
        try append(chunk[start..<chunk.endIndex])
        return lines
    }

    /// What is left when the body ends: an unfinished last line, if any.
    mutating func finish() -> [UInt8]? {
        defer { partial.removeAll() }
        return partial.isEmpty ? nil : partial
    }

    private mutating func append(_ bytes: Data.SubSequence) throws(LineTooLong) {
        guard partial.count + bytes.count <= maxLineLength else { throw LineTooLong() }
        partial.append(contentsOf: bytes)
    }
}
