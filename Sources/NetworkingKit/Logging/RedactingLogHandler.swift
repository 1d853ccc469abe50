import Logging

/// A log handler that hides secrets in every message and metadata value before passing them on.
///
/// ``LoggingMiddleware`` hands the middlewares inside it a logger built on this handler, so that
/// what they log about a call (a retry's reason, a cache's URL) is redacted like its own lines:
/// the middleware declares the secrets once, for the whole chain below it.
struct RedactingLogHandler: LogHandler {
    private var upstream: any LogHandler
    private let redaction: Redaction
    /// The values known to be secret in the call being logged.
    private let secrets: [String]

    init(wrapping upstream: any LogHandler, redaction: Redaction, secrets: [String]) {
        self.upstream = upstream
        self.redaction = redaction
        self.secrets = secrets
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(redaction.redact(event.message.description, hiding: secrets))"
        event.metadata = event.metadata.map(redact)
        upstream.log(event: event)
    }

    // Metadata set on the logger is stored redacted, since the upstream handler adds it to each
    // record itself, past `log(event:)`.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue.map(redact) }
    }

    var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = redact(newValue) }
    }

    var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    private func redact(_ metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.mapValues(redact)
    }

    private func redact(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(redaction.redact(text, hiding: secrets))
        case .stringConvertible(let convertible): .string(redaction.redact(convertible.description, hiding: secrets))
        case .dictionary(let dictionary): .dictionary(dictionary.mapValues(redact))
        case .array(let array): .array(array.map(redact))
        }
    }
}

extension Logger {
    /// This logger with every message and metadata value redacted, keeping its label, level and
    /// metadata.
    func redacting(with redaction: Redaction, hiding secrets: [String]) -> Logger {
        let handler = RedactingLogHandler(wrapping: self.handler, redaction: redaction, secrets: secrets)
        return Logger(label: label, factory: { _ in handler })
    }
}
