public import Foundation

/// Where the time of one exchange went: when its request started, whether its connection was
/// reused, and each phase measured from the start.
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
/// AsyncHTTPClient's async API reports no phase of a request. URLSession gives its
/// `URLSessionTaskMetrics` only once a task has ended, after the answer has been handed on, and
/// FoundationNetworking on Linux never calls for them.
public struct RequestTiming: Sendable, Hashable {
    /// When the request was handed to the transport, on the monotonic clock the phases are
    /// measured from.
    public let startInstant: ContinuousClock.Instant
    /// Whether the connection had carried a request before (no connect, no handshake); `nil`
    /// when the transport does not say.
    public var reusedConnection: Bool?
    /// The phases, in nanoseconds from the start; `Int64.min` for none. Kept as integers so
    /// that an answer carrying them stays small to copy.
    private var waited = Int64.min
    private var dnsTime = Int64.min
    private var connectTime = Int64.min
    private var tlsTime = Int64.min
    private var sentTime = Int64.min
    private var firstByteTime = Int64.min
    private var lastByteTime = Int64.min

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
        Date(timeIntervalSinceNow: -Self.seconds(elapsed()))
    }

    /// Waiting for a free connection when an origin's limit was reached.
    public var waitedForConnection: Duration? {
        get { Self.duration(waited) }
        set { waited = Self.nanoseconds(newValue) }
    }

    /// Resolving the host's name, part of ``connect``; `nil` on a reused connection or when the
    /// transport does not say.
    public var dns: Duration? {
        get { Self.duration(dnsTime) }
        set { dnsTime = Self.nanoseconds(newValue) }
    }

    /// Resolving the name and opening the TCP connection; `nil` on a reused connection or when
    /// the transport does not say.
    public var connect: Duration? {
        get { Self.duration(connectTime) }
        set { connectTime = Self.nanoseconds(newValue) }
    }

    /// The TLS handshake; `nil` without TLS, on a reused connection, or when the transport does
    /// not say.
    public var tlsHandshake: Duration? {
        get { Self.duration(tlsTime) }
        set { tlsTime = Self.nanoseconds(newValue) }
    }

    /// Until the request's last byte was handed to the connection, from the start.
    public var requestSent: Duration? {
        get { Self.duration(sentTime) }
        set { sentTime = Self.nanoseconds(newValue) }
    }

    /// Until the answer's head arrived (time to first byte), from the start.
    public var firstByte: Duration? {
        get { Self.duration(firstByteTime) }
        set { firstByteTime = Self.nanoseconds(newValue) }
    }

    /// Until the answer's last byte was read, from the start; `nil` for an answer streamed to
    /// the caller, who reads it after the call has returned.
    public var lastByte: Duration? {
        get { Self.duration(lastByteTime) }
        set { lastByteTime = Self.nanoseconds(newValue) }
    }

    /// The time from the start to now: what a transport sets a phase to as it ends.
    public func elapsed() -> Duration { startInstant.duration(to: .now) }

    private static func duration(_ nanoseconds: Int64) -> Duration? {
        nanoseconds == .min ? nil : .nanoseconds(nanoseconds)
    }

    private static func nanoseconds(_ duration: Duration?) -> Int64 {
        guard let duration else { return .min }
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min + 1 : .max }
        return product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
