import Logging

extension Logger {
    /// Whether this is a no-op logger (the client's default), which drops every line: work done
    /// only for its lines (metadata, redaction) can be skipped.
    var writesNothing: Bool {
        handler is SwiftLogNoOpLogHandler
    }
}
