public import Foundation

/// The body of a request or a response: buffered bytes, or an asynchronous stream of chunks.
///
/// A body knows its length when it can (``length-swift.property``) and whether it can be read
/// more than once (``isReplayable``). Buffered bodies can always be replayed. A stream that wraps
/// a one-shot source (a socket, a file handle being read) is created with
/// ``IterationBehavior-swift.enum/single``: reading it a second time throws
/// ``NetworkError/bodyNotReplayable``, so a retry can never resend half a stream.
///
/// ```swift
/// let json = HTTPBody(Data(#"{"rating":5}"#.utf8))
/// let upload = HTTPBody(chunks, length: .known(fileSize), iterationBehavior: .single)
/// ```
public struct HTTPBody: Sendable, AsyncSequence {
    /// The chunks of a body are `Data` values.
    public typealias Element = Data
    /// Reading a body can fail (a dropped connection, a body over the size limit).
    public typealias Failure = any Error

    /// How many bytes a body holds, when that is known in advance.
    public enum Length: Sendable, Hashable {
        /// The length is not known until the body has been read to its end.
        case unknown
        /// The body holds exactly this many bytes.
        case known(Int64)
    }

    /// Whether the underlying source of a body can be read more than once.
    public enum IterationBehavior: Sendable, Hashable {
        /// The source can be read once only; a second read throws.
        case single
        /// Each read starts again from the first byte.
        case multiple
    }

    private enum Storage: Sendable {
        case buffered(Data)
        case stream(makeIterator: @Sendable () -> Iterator)
    }

    private let storage: Storage
    /// Tracks whether a single-iteration stream has been started; shared by every copy of the body.
    private let consumed: LockedState<Bool>?

    /// The number of bytes in the body, when known in advance.
    public let length: Length

    /// How often the body can be read.
    public let iterationBehavior: IterationBehavior

    /// What few bodies have (a file, an observer), behind one reference so that every other
    /// body stays as small as it was: bodies are passed through every middleware of every call.
    private final class Extras: Sendable {
        let fileURL: URL?
        let sendObserver: (@Sendable (Int64) -> Void)?

        init(fileURL: URL?, sendObserver: (@Sendable (Int64) -> Void)?) {
            self.fileURL = fileURL
            self.sendObserver = sendObserver
        }
    }

    private var extras: Extras?

    /// The file the body reads, when it is exactly one whole file (``file(at:)``): a transport
    /// that can send a file itself (URLSession's upload tasks) does so instead of reading it.
    package var fileURL: URL? { extras?.fileURL }

    /// Told how many bytes each chunk held as the body is read, for upload progress; a
    /// transport that sends the body without reading it reports what it sent here itself.
    package var sendObserver: (@Sendable (Int64) -> Void)? { extras?.sendObserver }

    /// Creates a buffered body from bytes.
    public init(_ data: Data) {
        self.storage = .buffered(data)
        self.length = .known(Int64(data.count))
        self.iterationBehavior = .multiple
        self.consumed = nil
        self.extras = nil
    }

    /// Creates a buffered body from the UTF-8 bytes of a string.
    public init(_ string: String) {
        self.init(Data(string.utf8))
    }

    /// Creates a streaming body from an asynchronous sequence of chunks.
    /// - Parameters:
    ///   - chunks: The chunks, in order.
    ///   - length: The total number of bytes, if known; transports send it as `Content-Length`.
    ///   - iterationBehavior: Whether `chunks` can be iterated more than once.
    public init<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks,
        length: Length,
        iterationBehavior: IterationBehavior
    ) where Chunks.Element == Data {
        let declared: Int64? = if case .known(let count) = length { count } else { nil }
        self.storage = .stream(makeIterator: {
            var iterator = chunks.makeAsyncIterator()
            var received: Int64 = 0
            return Iterator {
                guard let chunk = try await iterator.next() else {
                    // Many async sequences (AsyncStream among them) end quietly when the reading
                    // task is cancelled; a cancelled read must not pass for a complete body.
                    try Task.checkCancellation()
                    if let declared, received != declared {
                        throw NetworkError.transport(
                            TransportFailure(
                                kind: .truncatedBody, underlying: BodyLengthMismatch(declared: declared, received: received)))
                    }
                    return nil
                }
                received += Int64(chunk.count)
                if let declared, received > declared {
                    throw NetworkError.transport(
                        TransportFailure(
                            kind: .invalidResponse, underlying: BodyLengthMismatch(declared: declared, received: received)))
                }
                return chunk
            }
        })
        self.length = length
        self.iterationBehavior = iterationBehavior
        self.consumed = iterationBehavior == .single ? LockedState(false) : nil
        self.extras = nil
    }

    /// Whether the body can be sent again, for example by a retry or a redirect.
    public var isReplayable: Bool {
        iterationBehavior == .multiple
    }

    /// The bytes of a buffered body, or `nil` for a stream.
    public var bufferedData: Data? {
        if case .buffered(let data) = storage { return data }
        return nil
    }

    /// Reads chunk after chunk of a body.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate var produceNext: () async throws -> Data?

        /// Returns the next chunk, or `nil` at the end of the body.
        public mutating func next() async throws -> Data? {
            try await produceNext()
        }
    }

    /// Starts reading the body. A second read of a single-iteration body throws
    /// ``NetworkError/bodyNotReplayable`` from the iterator's first `next()`.
    public func makeAsyncIterator() -> Iterator {
        guard let sendObserver else { return makeUnobservedIterator() }
        var base = makeUnobservedIterator()
        return Iterator {
            let chunk = try await base.next()
            if let chunk { sendObserver(Int64(chunk.count)) }
            return chunk
        }
    }

    /// The same body, telling `observer` the size of each chunk as it is read.
    package func observingReads(_ observer: @escaping @Sendable (Int64) -> Void) -> HTTPBody {
        var body = self
        body.extras = Extras(fileURL: fileURL, sendObserver: observer)
        return body
    }

    /// The same body without its observer: for a transport that copies the body somewhere before
    /// sending it, and reports what it sent itself.
    package var unobserved: HTTPBody {
        var body = self
        body.extras = fileURL.map { Extras(fileURL: $0, sendObserver: nil) }
        return body
    }

    /// A body read from the file at `url` in chunks, never whole, with the file's length; a
    /// symbolic link is followed to the file it names.
    ///
    /// The file is checked now, so a missing or unreadable file fails before a byte is sent; it
    /// is opened again for each read, so the body can be replayed (by a retry or a redirect). A
    /// file whose size changes between the check and the end of a read fails that read with
    /// ``FileFailure/Reason/changedWhileReading(expected:found:)``.
    /// - Throws: ``NetworkError/fileFailed(_:)``.
    public static func file(at url: URL) throws -> HTTPBody {
        let length = try FileChunks.checkedLength(of: url)
        let url = FileChunks.target(of: url)
        var body = HTTPBody(FileChunks(url: url, length: length), length: .known(length), iterationBehavior: .multiple)
        body.extras = Extras(fileURL: url, sendObserver: nil)
        return body
    }

    /// The same body, read with a size limit and with its errors passed through `mapError`: for
    /// the body a caller reads (``StreamedResponse/body``). Not another body around this one: the
    /// same length, the same single reading (a second read fails as this body's would).
    /// - Parameters:
    ///   - limit: Past this many bytes the read fails with
    ///     ``NetworkError/responseTooLarge(limit:request:)``, at once when the declared length is
    ///     over it; `nil` for no limit.
    ///   - request: The request named in that error.
    ///   - mapError: What every error becomes for the reader.
    package func checked(
        limit: Int?, request: RequestSummary, mapError: @escaping @Sendable (any Error) -> any Error
    ) -> HTTPBody {
        let refused = if let limit, case .known(let declared) = length { declared > Int64(limit) } else { false }
        let base = self
        let storage = Storage.stream(makeIterator: {
            var iterator = base.makeUnobservedIterator()
            var received = 0
            return Iterator {
                if refused, let limit { throw NetworkError.responseTooLarge(limit: limit, request: request) }
                do {
                    guard let chunk = try await iterator.next() else { return nil }
                    received += chunk.count
                    if let limit, received > limit { throw NetworkError.responseTooLarge(limit: limit, request: request) }
                    return chunk
                } catch {
                    throw mapError(error)
                }
            }
        })
        // The base's flag guards the single reading.
        return HTTPBody(storage: storage, length: length, iterationBehavior: iterationBehavior, consumed: nil)
    }

    private init(storage: Storage, length: Length, iterationBehavior: IterationBehavior, consumed: LockedState<Bool>?) {
        self.storage = storage
        self.length = length
        self.iterationBehavior = iterationBehavior
        self.consumed = consumed
        self.extras = nil
    }

    private func makeUnobservedIterator() -> Iterator {
        switch storage {
        case .buffered(let data):
            var delivered = false
            return Iterator {
                guard !delivered, !data.isEmpty else { return nil }
                delivered = true
                return data
            }
        case .stream(let makeIterator):
            if let consumed {
                let alreadyStarted = consumed.withLock { started in
                    defer { started = true }
                    return started
                }
                if alreadyStarted {
                    return Iterator { throw NetworkError.bodyNotReplayable }
                }
            }
            return makeIterator()
        }
    }

    /// Reads the whole body into memory, failing as soon as it grows past `limit` bytes.
    ///
    /// A body whose declared length is already over the limit fails before a byte is read.
    /// - Throws: ``NetworkError/responseTooLarge(limit:request:)`` (with no request attached; the
    ///   client adds it), or whatever reading the stream throws.
    public func collect(upTo limit: Int) async throws -> Data {
        if case .known(let declared) = length, declared > Int64(limit) {
            throw NetworkError.responseTooLarge(limit: limit, request: nil)
        }
        if case .buffered(let data) = storage {
            guard data.count <= limit else { throw NetworkError.responseTooLarge(limit: limit, request: nil) }
            return data
        }
        var collected = Data()
        if case .known(let declared) = length {
            collected.reserveCapacity(Int(declared))
        }
        for try await chunk in self {
            guard collected.count + chunk.count <= limit else {
                throw NetworkError.responseTooLarge(limit: limit, request: nil)
            }
            collected.append(chunk)
        }
        return collected
    }

    /// Reads at most `limit` bytes and stops, for a bounded copy of a body whose tail may be dropped.
    ///
    /// A read that fails midway keeps what arrived (the copy is a courtesy, not the answer); only
    /// cancellation is thrown.
    /// - Returns: The bytes read and whether the copy is incomplete (more bytes were left unread,
    ///   or the read failed).
    func prefix(upTo limit: Int) async throws -> (data: Data, truncated: Bool) {
        if case .buffered(let data) = storage {
            return (data.prefix(limit), data.count > limit)
        }
        var collected = Data()
        do {
            for try await chunk in self {
                let room = limit - collected.count
                if chunk.count > room {
                    collected.append(chunk.prefix(room))
                    return (collected, true)
                }
                collected.append(chunk)
            }
        } catch {
            if error is CancellationError || Task.isCancelled { throw NetworkError.cancelled }
            if case NetworkError.cancelled = error { throw error }
            return (collected, true)
        }
        return (collected, false)
    }
}

/// The detail of a body whose length differs from the length its sender declared.
struct BodyLengthMismatch: Error, CustomStringConvertible {
    let declared: Int64
    let received: Int64

    var description: String {
        received < declared
            ? "the body ended after \(received) of \(declared) declared bytes"
            : "the body is longer than the \(declared) bytes declared"
    }
}
