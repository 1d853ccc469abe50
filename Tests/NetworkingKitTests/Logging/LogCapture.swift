import Foundation
import Logging
import NetworkingKit
import NetworkingKitTesting

/// One record a ``LogCapture`` kept: the level, the message, and the metadata (the logger's and
/// the call's, merged as a real handler would) rendered as text.
struct LogRecord: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
    /// The description of the record's error, if it has one.
    var error: String? = nil

    /// Everything the record would print, for "this secret appears nowhere" checks.
    var rendered: String {
        ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [error].compactMap { $0 })
            .joined(separator: " ")
    }
}

/// An in-memory log handler for tests: records every message at every level.
final class LogCapture: Sendable {
    private let stored = LockedState<[LogRecord]>([])

    var records: [LogRecord] { stored.withLock { $0 } }

    /// The records with `message`.
    func records(_ message: String) -> [LogRecord] { records.filter { $0.message == message } }

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .trace, metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self, metadataProvider: metadataProvider) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ record: LogRecord) {
        stored.withLock { $0.append(record) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let provided = metadataProvider?.get() ?? [:]
            let merged = metadata.merging(provided) { _, new in new }.merging(event.metadata ?? [:]) { _, new in new }
            capture.append(
                LogRecord(
                    level: event.level, message: event.message.description,
                    metadata: merged.mapValues { "\($0)" }, error: event.error.map { String(describing: $0) }))
        }
    }
}
