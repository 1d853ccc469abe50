import Foundation

/// The values of a JSON lines (NDJSON) answer, decoded one line at a time as the lines arrive:
/// the answer of ``APIClient/lines(_:as:decoder:maxLineLength:)``.
///
/// Lines end in LF or CRLF; blank lines are skipped. A line that does not decode ends the
/// sequence with ``NetworkError/decodingFailed(_:)`` naming its line number; a line longer than
/// the limit with ``NetworkError/responseTooLarge(limit:request:)``.
public struct JSONLines<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = any Error

    let connect: @Sendable () async throws -> StreamedResponse
    let decoder: any ResponseDecoder
    let maxLineLength: Int

    /// Reads values; the request is sent by the first `next()`.
    public final class AsyncIterator: AsyncIteratorProtocol {
        private let connect: @Sendable () async throws -> StreamedResponse
        private let decoder: any ResponseDecoder
        private var splitter: LineSplitter
        private var body: HTTPBody.Iterator?
        private var request: RequestSummary?
        /// Lines read but not yet decoded: `ready[readyIndex...]`.
        private var ready: [Data] = []
        private var readyIndex = 0
        private var lineNumber = 0
        private var finished = false

        init(connect: @escaping @Sendable () async throws -> StreamedResponse, decoder: any ResponseDecoder, maxLineLength: Int) {
            self.connect = connect
            self.decoder = decoder
            self.splitter = LineSplitter(maxLineLength: maxLineLength)
        }

        /// The next value, or `nil` at the end of the answer.
        public func next() async throws -> Value? {
            while true {
                while readyIndex < ready.count {
                    let line = ready[readyIndex]
                    readyIndex += 1
                    lineNumber += 1
                    if let value = try decode(line) { return value }
                }
                if finished { return nil }
                try await fill()
            }
        }

        private func fill() async throws {
            do {
                if body == nil {
                    let answer = try await connect()
                    request = answer.request
                    body = answer.body.makeAsyncIterator()
                }
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                guard var current = body, let chunk = try await current.next() else {
                    finished = true
                    if let last = splitter.finish() { ready.append(Data(last)) }
                    return
                }
                body = current
                try splitter.forEachLine(in: chunk) { ready.append(Data(buffer: $0)) }
            } catch is LineSplitter.LineTooLong {
                finished = true
                throw NetworkError.responseTooLarge(limit: splitter.maxLineLength, request: request)
            } catch {
                finished = true
                throw error is CancellationError ? NetworkError.cancelled : error
            }
        }

        /// The value of a line; `nil` for a blank one.
        private func decode(_ data: Data) throws -> Value? {
            guard data.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return nil }
            do {
                return try decoder.decode(Value.self, from: data)
            } catch {
                finished = true
                body = nil
                let failure = DecodingFailure(decoding: Value.self, from: data, error: error, request: request)
                throw NetworkError.decodingFailed(
                    DecodingFailure(
                        typeName: failure.typeName, codingPath: failure.codingPath,
                        reason: "line \(lineNumber): \(failure.reason)", snippet: failure.snippet, request: request,
                        underlying: error))
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(connect: connect, decoder: decoder, maxLineLength: maxLineLength)
    }
}

extension APIClient {
    /// Sends an endpoint whose answer is JSON lines (NDJSON) and returns its values as they
    /// arrive, one per line.
    ///
    /// ```swift
    /// for try await todo in client.lines(TodosAPI.export, as: TodoDTO.self) {
    ///     print(todo.title)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The endpoint whose answer is a stream of JSON lines.
    ///   - type: The type each line decodes to.
    ///   - decoder: The decoder for each line; a `LiveAPIClient`'s own when called on one through
    ///     ``LiveAPIClient/lines(_:as:maxLineLength:)``.
    ///   - maxLineLength: The longest line accepted, in bytes.
    public func lines<Value: Decodable & Sendable>(
        _ endpoint: some APIEndpoint, as type: Value.Type, decoder: any ResponseDecoder, maxLineLength: Int = 1024 * 1024
    ) -> JSONLines<Value> {
        JSONLines(connect: { try await bytes(endpoint) }, decoder: decoder, maxLineLength: maxLineLength)
    }
}

extension LiveAPIClient {
    /// Sends an endpoint whose answer is JSON lines, decoding each line with the endpoint's
    /// ``RequestOptions/decoder``, or the client's decoder.
    public func lines<Value: Decodable & Sendable>(
        _ endpoint: some APIEndpoint, as type: Value.Type, maxLineLength: Int = 1024 * 1024
    ) -> JSONLines<Value> {
        lines(endpoint, as: type, decoder: endpoint.options.decoder ?? configuration.decoder, maxLineLength: maxLineLength)
    }
}
