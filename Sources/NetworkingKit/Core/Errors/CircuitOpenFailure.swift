/// A call refused by a ``CircuitBreaker`` without being sent: the service behind its key failed
/// too often lately, and is given time to recover.
public struct CircuitOpenFailure: Sendable, CustomStringConvertible {
    /// The circuit's key: the host, or what the breaker's ``CircuitBreaker/Key`` made of the call.
    public let key: String
    /// How long until the circuit lets a probe call through, after which it may close; `nil`
    /// while the probes allowed are already on their way (the circuit is half-open).
    public let retryAfter: Duration?
    /// The request that was refused, when known.
    public internal(set) var request: RequestSummary?

    /// Creates the failure of a refused call.
    public init(key: String, retryAfter: Duration?, request: RequestSummary? = nil) {
        self.key = key
        self.retryAfter = retryAfter
        self.request = request
    }

    /// `circuit open for 'https://api.example.com': a probe in 4.2 s`.
    public var description: String {
        let wait = retryAfter.map { "a probe in \(Self.seconds($0)) s" } ?? "its probes are on their way"
        return "circuit open for '\(key)': \(wait)"
    }

    /// Seconds to the millisecond: `4.2`; no conversion that could trap, however long.
    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return String((seconds * 1000).rounded() / 1000)
    }
}
