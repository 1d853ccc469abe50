import Foundation

/// The chunks already read from a stream, then the rest of it (or the error its read hit): the
/// stream as the caller would have read it, had nothing looked at its start.
struct PrefixedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// What is left to read, handed to the one iterator made.
    private struct Remainder: @unchecked Sendable {  // @unchecked: the iterator is taken out once, under the lock, by one reader.
        let chunks: [Data]
        let rest: HTTPBody.Iterator?
        let failure: (any Error)?
    }

    private let state: LockedState<Remainder?>

    init(chunks: [Data], then rest: HTTPBody.Iterator?, failure: (any Error)?) {
        self.state = LockedState(Remainder(chunks: chunks, rest: rest, failure: failure))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: [Data]
        var rest: HTTPBody.Iterator?
        var failure: (any Error)?

        mutating func next() async throws -> Data? {
            if !chunks.isEmpty { return chunks.removeFirst() }
            if let failure {
                self.failure = nil
                throw failure
            }
            guard var iterator = rest else { return nil }
            rest = nil
            let chunk = try await iterator.next()
            if chunk != nil { rest = iterator }
            return chunk
        }
    }

    /// The one iterator over the chunks (the body is handed on as `.single`); a second is empty.
    func makeAsyncIterator() -> AsyncIterator {
        let taken = state.withLock { state in
            defer { state = nil }
            return state
        }
        return AsyncIterator(chunks: taken?.chunks ?? [], rest: taken?.rest, failure: taken?.failure)
    }
}
