import Foundation

/// One stretch of an encoded multipart body: bytes in memory, a file read in chunks, or a
/// caller's body. A body is a list of segments read one after the other.
enum MultipartSegment: Sendable {
    case bytes(Data)
    case file(URL, length: Int64)
    case body(HTTPBody)

    var length: Int64? {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let length): length
        case .body(let body): if case .known(let length) = body.length { length } else { nil }
        }
    }

    var isReplayable: Bool {
        if case .body(let body) = self { return body.isReplayable }
        return true
    }

    /// The segments as one body: of known length when every segment's is, replayable when every
    /// segment is. Runs of bytes between two streamed segments are sent as one chunk.
    static func body(of segments: [MultipartSegment]) -> HTTPBody {
        let lengths = segments.map(\.length)
        let length: HTTPBody.Length =
            lengths.contains(nil) ? .unknown : .known(lengths.reduce(0) { $0 + ($1 ?? 0) })
        let replayable = segments.allSatisfy(\.isReplayable)
        return HTTPBody(
            Chunks(segments: coalesced(segments)), length: length, iterationBehavior: replayable ? .multiple : .single)
    }

    private static func coalesced(_ segments: [MultipartSegment]) -> [MultipartSegment] {
        var result: [MultipartSegment] = []
        for segment in segments {
            if case .bytes(let data) = segment, case .bytes(let previous)? = result.last {
                result[result.count - 1] = .bytes(previous + data)
            } else {
                result.append(segment)
            }
        }
        return result
    }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let segments: [MultipartSegment]

        struct AsyncIterator: AsyncIteratorProtocol {
            let segments: [MultipartSegment]
            var index = 0
            var current: HTTPBody.Iterator?

            mutating func next() async throws -> Data? {
                while index < segments.count {
                    if var iterator = current {
                        let chunk = try await iterator.next()
                        current = iterator
                        if let chunk { return chunk }
                        current = nil
                        index += 1
                        continue
                    }
                    switch segments[index] {
                    case .bytes(let data):
                        index += 1
                        if !data.isEmpty { return data }
                    case .file(let url, let length):
                        current = HTTPBody(
                            FileChunks(url: url, length: length), length: .known(length), iterationBehavior: .multiple
                        ).makeAsyncIterator()
                    case .body(let body):
                        current = body.makeAsyncIterator()
                    }
                }
                return nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(segments: segments)
        }
    }
}
