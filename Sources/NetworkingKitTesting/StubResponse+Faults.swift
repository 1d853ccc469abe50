public import Foundation
public import HTTPTypes
public import NetworkingKit

/// A wait before a ``StubTransport`` answers, on a clock the test chooses.
public struct StubDelay: Sendable {
    /// How long to wait.
    public var duration: Duration
    /// The clock to wait on; an `ImmediateClock` records the wait and returns at once.
    public var clock: any Clock<Duration>

    /// Creates a delay of `duration` on `clock`.
    public init(_ duration: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.duration = duration
        self.clock = clock
    }
}

/// The faults a ``StubTransport`` can play: transport errors, delays, slow and truncated bodies.
///
/// ```swift
/// let clock = ImmediateClock()
/// let transport = StubTransport(routes: [
///     .get("/films", try .json(films).delayed(by: .seconds(2), clock: clock)),
///     .get("/posters", .slowBody(chunks, interval: .milliseconds(100), clock: clock)),
///     .get("/trailer", .truncated(trailerStart, declaredLength: 10_000)),
///     .get("/offline", .failure(.transport(TransportFailure(kind: .notConnected)))),
/// ])
/// ```
extension StubResponse {
    /// The transport throws `error` instead of answering, as a real one does when the connection
    /// fails (use `NetworkError.transport` for a failure below HTTP, or
    /// `NetworkError.timeout`).
    public static func failure(_ error: NetworkError) -> StubResponse {
        var stub = StubResponse(status: .internalServerError)
        stub.failure = error
        return stub
    }

    /// The transport throws a `NetworkError.transport` failure of `kind`.
    public static func transportFailure(_ kind: TransportFailure.Kind) -> StubResponse {
        .failure(.transport(TransportFailure(kind: kind)))
    }

    /// The same answer (or failure), given after waiting `duration` on `clock`.
    public func delayed(by duration: Duration, clock: any Clock<Duration> = ContinuousClock()) -> StubResponse {
        var stub = self
        stub.delay = StubDelay(duration, clock: clock)
        return stub
    }

    /// An answer whose body arrives in `chunks`, waiting `interval` on `clock` before each one.
    ///
    /// The body declares its full length, as a server streaming a file would.
    public static func slowBody(
        _ chunks: [Data],
        interval: Duration,
        clock: any Clock<Duration> = ContinuousClock(),
        status: HTTPResponse.Status = .ok,
        headers: [String: String] = [:]
    ) -> StubResponse {
        let total = chunks.reduce(0) { $0 + $1.count }
        let body = HTTPBody(
            SlowChunks(chunks: chunks, interval: interval, clock: clock),
            length: .known(Int64(total)), iterationBehavior: .multiple)
        return StubResponse(
            status: status, headers: headers.merging(["Content-Length": String(total)]) { own, _ in own }, body: body)
    }

    /// An answer whose body is `data` split into chunks of `chunkSize` bytes, waiting `interval` on
    /// `clock` before each one.
    public static func slowBody(
        _ data: Data,
        chunkSize: Int,
        interval: Duration,
        clock: any Clock<Duration> = ContinuousClock(),
        status: HTTPResponse.Status = .ok,
        headers: [String: String] = [:]
    ) -> StubResponse {
        let size = max(1, chunkSize)
        let bytes = [UInt8](data)
        let chunks = stride(from: 0, to: bytes.count, by: size).map { start in
            Data(bytes[start..<min(start + size, bytes.count)])
        }
        return slowBody(chunks, interval: interval, clock: clock, status: status, headers: headers)
    }

    /// An answer that declares `declaredLength` bytes (in `Content-Length` and the body's length)
    /// but ends after `data`, as a dropped connection does; the client reading it sees
    /// `NetworkError.transport` with kind `.truncatedBody`.
    public static func truncated(
        _ data: Data,
        declaredLength: Int,
        status: HTTPResponse.Status = .ok,
        headers: [String: String] = [:]
    ) -> StubResponse {
        let body = HTTPBody(
            SlowChunks(chunks: [data], interval: .zero, clock: nil),
            length: .known(Int64(declaredLength)), iterationBehavior: .multiple)
        return StubResponse(
            status: status, headers: headers.merging(["Content-Length": String(declaredLength)]) { own, _ in own },
            body: body)
    }
}

/// Chunks handed out one at a time, each after a wait on a clock.
struct SlowChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let chunks: [Data]
    let interval: Duration
    let clock: (any Clock<Duration>)?

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Data>
        let interval: Duration
        let clock: (any Clock<Duration>)?

        mutating func next() async throws -> Data? {
            guard let chunk = remaining.popFirst() else { return nil }
            if let clock, interval > .zero {
                try await clock.sleep(for: interval)
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: chunks[...], interval: interval, clock: clock)
    }
}
