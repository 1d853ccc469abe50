import Foundation
import InMemoryLogging
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

/// Every message at every level, kept in memory by swift-log's `InMemoryLogHandler`, as
/// ``LogRecord``s.
final class LogCapture: Sendable {
    /// Its copies share one store: every logger made here writes to the same records.
    private let handler = InMemoryLogHandler()

    var records: [LogRecord] {
        handler.entries.map { entry in
            LogRecord(
                level: entry.level, message: entry.message.description, metadata: entry.metadata.mapValues { "\($0)" },
                error: entry.error.map { String(describing: $0) })
        }
    }

    /// The records with `message`.
    func records(_ message: String) -> [LogRecord] { records.filter { $0.message == message } }

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .trace, metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        var handler = self.handler
        handler.metadataProvider = metadataProvider
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = level
        return logger
    }
}
