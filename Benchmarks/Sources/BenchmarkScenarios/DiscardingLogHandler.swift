import Logging

/// A log handler that takes `.debug` and above and throws the line away: logging switched on, with the
/// formatting paid for, but no I/O in the measurement.
public struct DiscardingLogHandler: LogHandler {
    public var logLevel: Logger.Level = .debug
    public var metadata: Logger.Metadata = [:]

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {}
}
