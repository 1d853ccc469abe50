import Logging

extension Logger {
    /// Whether this is a no-op logger (the client's default), which drops every line: work done
    /// only for its lines (metadata, redaction) can be skipped.
    var writesNothing: Bool {
        // The handler's type compared, not cast: `is` costs a dynamic cast on every call, and a
        // struct has no subclass that a cast would also find.
        type(of: handler) == SwiftLogNoOpLogHandler.self
    }
}
