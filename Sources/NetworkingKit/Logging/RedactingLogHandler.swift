import Logging

/// A log handler that hides secrets in every message, metadata value and error before passing
/// them on.
///
/// ``LoggingMiddleware`` hands the middlewares inside it a logger built on this handler, so that
/// what they log about a call (a retry's reason, a cache's URL) is redacted like its own lines:
/// the middleware declares the secrets once, for the whole chain below it.
///
/// Redaction happens when a record is written, never when metadata is set: code below the
/// middleware sets metadata on every call (AsyncHTTPClient sets two keys per request) whether or
/// not a line is ever written, and redacting there cost a third of a full-stack call. Metadata
/// set through this handler is kept here, unredacted, and merged into each record it writes.
struct RedactingLogHandler: LogHandler {
    private var upstream: any LogHandler
    private let redaction: Redaction
    /// The values known to be secret in the call being logged, worked out on the first line.
    private let secrets: LazySecrets
    /// Metadata set on this logger, merged over the upstream's own and redacted when written.
    private var ownMetadata: Logger.Metadata = [:]

    init(wrapping upstream: any LogHandler, redaction: Redaction, secrets: LazySecrets) {
        self.upstream = upstream
        self.redaction = redaction
        self.secrets = secrets
        // The upstream handler merges its provider's metadata itself, past `log(event:)`; the
        // provider is called only for a record that is written. Set only when there is one: a
        // handler without support for providers has swift-log warn at any assignment, nil too.
        if let provider = upstream.metadataProvider {
            self.upstream.metadataProvider = redacting(provider)
        }
    }

    func log(event: LogEvent) {
        var event = event
        let secrets = secrets.value
        event.message = "\(redaction.redact(event.message.description, hiding: secrets))"
        // The record's own metadata wins over the logger's, as swift-log's handlers merge them.
        var metadata = ownMetadata
        if let recordMetadata = event.metadata {
            metadata.merge(recordMetadata) { _, record in record }
        }
        event.metadata = metadata.isEmpty ? event.metadata : redact(metadata, secrets: secrets)
        if let error = event.error {
            event.error = RedactedError(description: redaction.redact(String(describing: error), hiding: secrets))
        }
        upstream.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { ownMetadata[key] ?? upstream[metadataKey: key] }
        set { ownMetadata[key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { upstream.metadata.merging(ownMetadata) { _, own in own } }
        set { ownMetadata = newValue }
    }

    var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set {
            guard newValue != nil || upstream.metadataProvider != nil else { return }
            upstream.metadataProvider = newValue.map(redacting)
        }
    }

    /// `provider` with every value it provides redacted.
    private func redacting(_ provider: Logger.MetadataProvider) -> Logger.MetadataProvider {
        let redaction = redaction
        let secrets = secrets
        return Logger.MetadataProvider {
            provider.get().mapValues { Self.redact($0, redaction: redaction, secrets: secrets.value) }
        }
    }

    private func redact(_ metadata: Logger.Metadata, secrets: [String]) -> Logger.Metadata {
        metadata.mapValues { Self.redact($0, redaction: redaction, secrets: secrets) }
    }

    private static func redact(
        _ value: Logger.Metadata.Value, redaction: Redaction, secrets: [String]
    ) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(redaction.redact(text, hiding: secrets))
        case .stringConvertible(let convertible): .string(redaction.redact(convertible.description, hiding: secrets))
        case .dictionary(let dictionary): .dictionary(dictionary.mapValues { redact($0, redaction: redaction, secrets: secrets) })
        case .array(let array): .array(array.map { redact($0, redaction: redaction, secrets: secrets) })
        }
    }
}

/// An error logged through a ``RedactingLogHandler``: the original's description, redacted.
struct RedactedError: Error, CustomStringConvertible {
    let description: String
}

/// The secrets of a call, worked out the first time a line is actually logged.
struct LazySecrets: Sendable {
    private let compute: @Sendable () -> [String]
    private let cache = LockedState<[String]?>(nil)

    init(_ compute: @escaping @Sendable () -> [String]) {
        self.compute = compute
    }

    var value: [String] {
        if let cached = cache.withLock({ $0 }) { return cached }
        let computed = compute()
        cache.withLock { $0 = computed }
        return computed
    }
}

extension Logger {
    /// This logger with every message, metadata value and error redacted, keeping its label,
    /// level and metadata.
    func redacting(with redaction: Redaction, hiding secrets: LazySecrets) -> Logger {
        let handler = RedactingLogHandler(wrapping: self.handler, redaction: redaction, secrets: secrets)
        return Logger(label: label, factory: { _ in handler })
    }
}
