import Logging

/// A log handler that takes `.debug` and above and throws the line away: logging switched on, with the
/// formatting paid for, but no I/O in the measurement.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}
