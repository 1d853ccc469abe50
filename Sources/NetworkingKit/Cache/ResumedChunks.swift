import Foundation

/// The chunks of a body the cache started reading: the bytes already read, then the rest of the
/// original iterator, so that the caller still receives the body whole.
///
/// It only ever backs a ``HTTPBody`` with ``HTTPBody/IterationBehavior-swift.enum/single``
/// iteration: the body itself refuses a second iterator, so the shared state below is used by
/// one reader at a time.
struct ResumedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// `@unchecked Sendable`: one reader at a time (see above) touches `head` and `rest`.
    fileprivate final class State: @unchecked Sendable {
        var head: Data?
        var rest: HTTPBody.Iterator

        init(head: Data, rest: HTTPBody.Iterator) {
            self.head = head
            self.rest = rest
        }
    }

    private let state: State

    init(head: Data, rest: HTTPBody.Iterator) {
        state = State(head: head, rest: rest)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let state: State

        mutating func next() async throws -> Data? {
            if let head = state.head {
                state.head = nil
                if !head.isEmpty { return head }
            }
            var rest = state.rest
            defer { state.rest = rest }
            return try await rest.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(state: state)
    }
}
