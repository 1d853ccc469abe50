import AsyncHTTPClient
import Foundation
import NetworkingKit
import NIOCore

/// An AsyncHTTPClient response body as chunks of `Data`, read within the request's deadline, with
/// errors mapped to ``NetworkError``.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPClientResponse.Body
    let deadline: ContinuousClock.Instant?
    let request: RequestSummary

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: IteratorBox
        let deadline: ContinuousClock.Instant?
        let request: RequestSummary

        mutating func next() async throws -> Data? {
            do {
                let buffer: ByteBuffer?
                if let deadline {
                    buffer = try await source.next(before: deadline)
                } else {
                    buffer = try await source.next()
                }
                return buffer.map { Data($0.readableBytesView) }
            } catch {
                throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .body, request: request)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: IteratorBox(body.makeAsyncIterator()), deadline: deadline, request: request)
    }
}

/// The response body's iterator, read in a child task so that a deadline can cancel the read.
///
/// `@unchecked Sendable`: one task at a time uses it; ``next(before:)`` awaits the child that
/// reads before it returns, and the iterator is never handed to anyone else.
final class IteratorBox: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> ByteBuffer? {
        try await iterator.next()
    }

    /// The next chunk, or ``DeadlineExceeded`` once `deadline` passes; cancelling the read
    /// cancels the request, so a slow body stops at the deadline.
    func next(before deadline: ContinuousClock.Instant) async throws -> ByteBuffer? {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await self.next() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw DeadlineExceeded()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { return nil }
            return first
        }
    }
}

/// The request's deadline passed while its body was being read.
struct DeadlineExceeded: Error {}
