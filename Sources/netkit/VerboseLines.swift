#if DemoAPI
import Logging
import NetworkingKit

extension LiveAPIClient.Configuration {
    /// `-v`: the library's own debug lines (a redirect followed, a retry) as `* ...` lines. The
    /// logging middleware writes nothing of its own at debug here; it is there so that what the
    /// inner steps log is redacted.
    mutating func showVerboseLines() {
        middlewares.insert(
            LoggingMiddleware(redaction: ResponsePrinter.redaction, requestLevel: .trace, responseLevel: .trace, failureLevel: .trace),
            at: 0)
        var logger = Logger(label: "netkit", factory: { _ in VerboseLines() })
        logger.logLevel = .debug
        self.logger = logger
    }
}

/// `netkit request -v` and `netkit ws -v`: the library's log lines as `* message key=value ...`, on standard output
/// with the rest of the exchange.
struct VerboseLines: LogHandler {
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // NetworkingKit's own lines (a redirect followed, a retry): AsyncHTTPClient's, given the
        // same logger, describe its connection pool and event loops, which a user cannot act on.
        guard event.source.hasPrefix("NetworkingKit") else { return }
        let fields = (event.metadata ?? [:]).filter { $0.key != "request-id" }.sorted { $0.key < $1.key }
        print("* \(event.message)" + fields.map { " \($0.key)=\($0.value)" }.joined())
    }
}
#endif
