public import Foundation

/// Where the time of one exchange went: when its request started, whether its connection was
/// reused, how long each phase of opening it took (the wait, DNS, connect, TLS), and when the
/// request was sent and the answer's first and last bytes arrived, measured from the start.
///
/// Read it on ``Response/timing`` (or ``HTTPAnswer/timing`` in a middleware). It describes the
/// exchange that brought the answer: the last hop of a redirected call, the last attempt of a
/// retried one. A cache hit sent nothing and has none.
///
/// ```swift
/// let response = try await client.response(PixarAPIEndpoint.films, as: [Film].self)
/// if let firstByte = response.timing?.firstByte, firstByte > .milliseconds(500) {
///     print("slow server: first byte after \(firstByte); connection reused: \(response.timing?.reusedConnection ?? false)")
/// }
/// ```
///
/// Every transport reports the start and the first byte, and the client the last byte of an
/// answer it read whole. The rest is filled in where the transport knows it:
///
/// | field | `NIOTransport` | `AsyncHTTPClientTransport` | ``URLSessionTransport`` |
/// |---|---|---|---|
/// | ``start``, ``firstByte``, ``lastByte`` | yes | yes | yes |
/// | ``reusedConnection``, ``waitedForConnection`` | yes | no | no |
/// | ``dns``, ``connect``, ``tlsHandshake`` (new connections) | yes | no | no |
/// | ``requestSent`` | yes | no | no |
///
/// A transport reports its own phases by conforming to ``TimedHTTPTransport``. AsyncHTTPClient's
/// async API reports no phase of a request. URLSession gives its
/// `URLSessionTaskMetrics` only once a task has ended, after the answer has been handed on, and
/// FoundationNetworking on Linux never calls for them.
public struct RequestTiming: Sendable, Hashable {
    /// When the request was handed to the transport, on the monotonic clock the phases are
    /// measured from.
    public let startInstant: ContinuousClock.Instant
    /// Whether the connection had carried a request before (no connect, no handshake); `nil`
    /// when the transport does not say.
    public var reusedConnection: Bool?
    /// How long the request waited for a free connection when an origin's limit was reached.
    public var waitedForConnection: Duration?
    /// How long resolving the host's name took, part of ``connect``; `nil` on a reused
    /// connection or when the transport does not say.
    public var dns: Duration?
    /// How long resolving the name and opening the TCP connection took; `nil` on a reused
    /// connection or when the transport does not say.
    public var connect: Duration?
    /// How long the TLS handshake took (pins checked); `nil` without TLS, on a reused
    /// connection, or when the transport does not say.
    public var tlsHandshake: Duration?
    /// Until the request's last byte was handed to the connection, from the start.
    public var requestSent: Duration?
    /// Until the answer's head arrived (time to first byte), from the start.
    public var firstByte: Duration?
    /// Until the answer's last byte was read, from the start; `nil` for an answer streamed to
    /// the caller, who reads it after the call has returned.
    public var lastByte: Duration?

    /// A timing that starts now.
    public init() {
        startInstant = .now
    }

    /// A timing that started at `instant`, on the monotonic clock.
    public init(startingAt instant: ContinuousClock.Instant) {
        startInstant = instant
    }

    /// When the request was handed to the transport, on the wall clock: worked out when read
    /// (from the monotonic start), so that a call nobody asks pays for no second clock.
    public var start: Date {
        let (seconds, attoseconds) = elapsed().components
        return Date(timeIntervalSinceNow: -(Double(seconds) + Double(attoseconds) / 1e18))
    }

    /// The time from the start to now: what a transport sets a phase to as it ends.
    public func elapsed() -> Duration { startInstant.duration(to: .now) }
}

/// A timing kept on the heap: answers and responses carry one pointer, not the whole timing,
/// so that the async frames they pass through stay small (each frame is allocated per call).
/// Changed in place only while one answer holds it (copy on write, ``HTTPAnswer/timing``).
final class TimingBox: @unchecked Sendable {  // @unchecked: `timing` changes only while uniquely referenced.
    var timing: RequestTiming

    init(_ timing: RequestTiming) {
        self.timing = timing
    }
}
