import Foundation
public import HTTPTypes
import HTTPTypesFoundation
public import Logging

/// Logs each call: one line when the request is sent, one when its answer (or error) comes back,
/// with every secret hidden.
///
/// ```swift
/// var logger = Logger(label: "api")
/// logger.logLevel = .debug
/// let client = LiveAPIClient(configuration: .init(
///     baseURL: baseURL,
///     middlewares: [
///         LoggingMiddleware(redaction: .default.adding(queryParameters: ["api_key"])),
///         AuthenticationMiddleware(tokenProvider: refresher),
///         RetryMiddleware(),
///     ],
///     logger: logger))
/// ```
///
/// Messages are static and the context is in metadata, as in AsyncHTTPClient:
///
/// | Message            | Level                          | Metadata                                                      |
/// |--------------------|--------------------------------|---------------------------------------------------------------|
/// | `Sending request`  | `requestLevel`                 | `http.method`, `http.url`, `attempt`, `request-id`            |
/// | `Received response`| `responseLevel`; `failureLevel` for 4xx and 5xx | the above, `http.status`, `duration-ms`, `cache`, and the exchange's timing where the transport reports it: `ttfb-ms` (first byte), `connection` (`new` or `reused`), `dns-ms`, `connect-ms`, `tls-ms` |
/// | `Request failed`   | `failureLevel`                 | the above, `error` (redacted), `http.status` when known        |
/// | `Request cancelled`| `responseLevel`                | the above, `duration-ms`                                       |
///
/// Headers (redacted) are added as `http.request.headers` and `http.response.headers` when
/// `logsHeaders` is set or the logger is at `trace`. Bodies are added as `http.request.body` and
/// `http.response.body` only when ``BodyLogging/text(maxBytes:)`` asks for them; see
/// ``BodyLogging``.
///
/// **Where to put it.** First in the list (outermost), it logs one pair of lines per logical
/// call, whatever retries, refreshes and cache hits happen inside; `attempt` is then always 1,
/// and the retries appear as ``RetryMiddleware``'s own `Retrying request` lines with the same
/// `request-id`. Placed after a ``RetryMiddleware``, it logs one pair per attempt instead, with
/// each attempt's number. Either way it sees the request before inner middlewares add their
/// headers: an `Authorization` added by ``AuthenticationMiddleware`` is never in its lines.
///
/// **Response bodies.** Logging a body must not consume the stream the caller will read. A
/// buffered body is logged as it is. Of a stream of known length only the first bytes are read,
/// and the body handed on yields them and then the rest of the same stream (or the error the read
/// hit), so the caller sees what it would have seen unlogged. A stream of unknown length is not
/// logged. Header values, errors and bodies are redacted by pattern and by the request's secrets.
///
/// **Inner middlewares.** The middlewares inside it log through a copy of the call's logger that
/// applies the same redaction to every message and metadata value, so a retry's reason or a
/// cache's URL cannot show what this middleware hides.
///
/// **Silent by default.** With no `logger`, it writes to the call's logger
/// (``RequestContext/logger``), which is ``LiveAPIClient/Configuration/logger``: a no-op unless
/// you configure one.
public struct LoggingMiddleware: Middleware {
    /// The logger to write to, or `nil` to use each call's ``RequestContext/logger``.
    public let logger: Logger?
    /// What is hidden from every line.
    public let redaction: Redaction
    /// The level of `Sending request`.
    public let requestLevel: Logger.Level
    /// The level of `Received response` for statuses under 400, and of `Request cancelled`.
    public let responseLevel: Logger.Level
    /// The level of `Request failed`, and of `Received response` for 4xx and 5xx statuses.
    public let failureLevel: Logger.Level
    /// Whether bodies are logged.
    public let bodies: BodyLogging
    /// Whether headers are logged at every level, not only at `trace`.
    public let logsHeaders: Bool

    /// Creates a logging middleware.
    /// - Parameters:
    ///   - logger: The logger to write to; `nil` (the default) writes to each call's logger.
    ///   - redaction: The headers and query parameters to hide.
    ///   - requestLevel: The level of the line for a request sent.
    ///   - responseLevel: The level of the line for a successful response.
    ///   - failureLevel: The level of the line for an error or a 4xx/5xx response.
    ///   - logsBodies: Whether to log text bodies, and how much of them.
    ///   - logsHeaders: Whether to log (redacted) headers at every level, not only at `trace`.
    public init(
        logger: Logger? = nil,
        redaction: Redaction = .default,
        requestLevel: Logger.Level = .debug,
        responseLevel: Logger.Level = .debug,
        failureLevel: Logger.Level = .warning,
        logsBodies: BodyLogging = .none,
        logsHeaders: Bool = false
    ) {
        self.logger = logger
        self.redaction = redaction
        self.requestLevel = requestLevel
        self.responseLevel = responseLevel
        self.failureLevel = failureLevel
        self.bodies = logsBodies
        self.logsHeaders = logsHeaders
    }

    /// Logs the request, runs the rest of the chain, and logs what came back.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: @escaping MiddlewareNext
    ) async throws -> HTTPAnswer {
        let logger = self.logger ?? context.logger
        // A no-op logger drops every line an inner middleware writes: nothing to redact.
        let innerLogs = !context.logger.writesNothing
        // Some line of its own is written when the logger takes the most severe of the three levels.
        let logsOwnLines = logger.logLevel <= max(requestLevel, responseLevel, failureLevel)
        // Nothing to write and nothing to hide: the call goes straight through, allocating nothing.
        guard innerLogs || logsOwnLines else { return try await next(request, body, context) }

        let secrets = LazySecrets { [redaction] in redaction.secrets(of: request) }
        var inner = context
        if innerLogs {
            inner.logger = context.logger.redacting(with: redaction, hiding: secrets)
        }
        guard logsOwnLines else { return try await next(request, body, inner) }
        let showsHeaders = logsHeaders || logger.logLevel <= .trace
        var summary = CallSummary(
            request: request, requestID: context.requestID, attempt: context.attempt, operation: context.operation,
            redaction: redaction, secrets: secrets)
        if logger.logLevel <= requestLevel {
            logger.log(
                level: requestLevel, "Sending request",
                metadata: requestMetadata(summary.metadata(), request, body, showsHeaders, secrets.value))
        }
        let start = ContinuousClock.now
        do {
            let answer = try await next(request, body, inner)
            return await logResponse(
                answer, summary: &summary, logger: logger, start: start, showsHeaders: showsHeaders,
                secrets: secrets)
        } catch {
            logFailure(error, summary: &summary, logger: logger, start: start, secrets: secrets)
            throw error
        }
    }

    /// Writes `Received response` when the logger takes its level, with the response's headers
    /// and the start of a text body when asked for; returns the answer with a body still whole.
    private func logResponse(
        _ answer: HTTPAnswer, summary: inout CallSummary, logger: Logger,
        start: ContinuousClock.Instant, showsHeaders: Bool, secrets: LazySecrets
    ) async -> HTTPAnswer {
        let response = answer.response
        let level = response.status.code >= 400 ? failureLevel : responseLevel
        guard logger.logLevel <= level else { return answer }
        var metadata = summary.metadata()
        metadata["duration-ms"] = "\(Self.milliseconds(since: start))"
        metadata["http.status"] = "\(response.status.code)"
        if let cache = answer.cacheStatus { metadata["cache"] = "\(cache.rawValue)" }
        if let timing = answer.timing { Self.add(timing, to: &metadata) }
        if showsHeaders {
            metadata["http.response.headers"] = self.metadata(response.headerFields, hiding: secrets.value)
        }
        var handedOn = answer
        if let maxBytes = bodies.maxBytes, let body = answer.body, BodyLogging.isText(contentType: response.headerFields.contentType) {
            let (logged, rest) = await Self.loggable(
                body, bytes: BodyLogging.bytesToRead(maxBytes: maxBytes, secrets: secrets.value))
            handedOn.body = rest
            if let (data, total) = logged {
                let text = BodyLogging.text(
                    of: data, totalBytes: total, maxBytes: maxBytes, contentType: response.headerFields.contentType,
                    redaction: redaction, secrets: secrets.value)
                metadata["http.response.body"] = "\(text)"
            }
        }
        logger.log(level: level, "Received response", metadata: metadata)
        return handedOn
    }

    /// Writes `Request cancelled` or `Request failed` (the error redacted) when the logger takes
    /// its level.
    private func logFailure(
        _ error: any Error, summary: inout CallSummary, logger: Logger, start: ContinuousClock.Instant,
        secrets: LazySecrets
    ) {
        let cancelled = error is CancellationError || Task.isCancelled || Self.isCancellation(error)
        guard logger.logLevel <= (cancelled ? responseLevel : failureLevel) else { return }
        var metadata = summary.metadata()
        metadata["duration-ms"] = "\(Self.milliseconds(since: start))"
        if cancelled {
            logger.log(level: responseLevel, "Request cancelled", metadata: metadata)
        } else {
            if let status = (error as? NetworkError)?.statusCode { metadata["http.status"] = "\(status)" }
            metadata["error"] = "\(redaction.redact(String(describing: error), hiding: secrets.value))"
            logger.log(level: failureLevel, "Request failed", metadata: metadata)
        }
    }

    /// The metadata of `Sending request`: the summary, plus headers and body when asked for.
    private func requestMetadata(
        _ summary: Logger.Metadata, _ request: HTTPRequest, _ body: HTTPBody?, _ showsHeaders: Bool, _ secrets: [String]
    ) -> Logger.Metadata {
        var metadata = summary
        if showsHeaders {
            metadata["http.request.headers"] = self.metadata(request.headerFields, hiding: secrets)
        }
        // Only a buffered body: reading a stream here would leave nothing to send.
        if let maxBytes = bodies.maxBytes, let data = body?.bufferedData,
            BodyLogging.isText(contentType: request.headerFields.contentType)
        {
            let text = BodyLogging.text(
                of: data, maxBytes: maxBytes, contentType: request.headerFields.contentType,
                redaction: redaction, secrets: secrets)
            metadata["http.request.body"] = "\(text)"
        }
        return metadata
    }

    /// The first `bytes` of a response body (or all of it, if shorter) with its total size, and
    /// the body to hand on, which yields exactly what `body` would have.
    ///
    /// A buffered body is logged as it is. Of a stream of known length, only the prefix is read;
    /// the body handed on yields it, then the rest of the same stream, or the error the read hit.
    /// A stream of unknown length is not logged.
    private static func loggable(_ body: HTTPBody, bytes: Int) async -> ((Data, Int)?, HTTPBody) {
        if let data = body.bufferedData { return ((data, data.count), body) }
        guard case .known(let length) = body.length else { return (nil, body) }
        var iterator = body.makeAsyncIterator()
        var chunks: [Data] = []
        var read = Data()
        var failure: (any Error)?
        var finished = false
        do {
            while read.count < bytes {
                guard let chunk = try await iterator.next() else {
                    finished = true
                    break
                }
                chunks.append(chunk)
                read.append(chunk)
            }
        } catch {
            failure = error
        }
        let handedOn = HTTPBody(
            PrefixedChunks(chunks: chunks, then: finished || failure != nil ? nil : iterator, failure: failure),
            length: body.length, iterationBehavior: .single)
        return ((read, Int(clamping: length)), handedOn)
    }

    /// Fields as metadata, redacted by name and by value, values of repeated names joined as
    /// HTTP joins them.
    private func metadata(_ fields: HTTPFields, hiding secrets: [String]) -> Logger.MetadataValue {
        var values: [String: Logger.MetadataValue] = [:]
        for field in redaction.redact(fields) {
            let name = field.name.canonicalName
            // A `Link` or `Location` value is a URL that may carry a sensitive query parameter.
            let value = redaction.redact(field.value, hiding: secrets)
            if case .string(let existing) = values[name] {
                values[name] = .string(existing + ", " + value)
            } else {
                values[name] = .string(value)
            }
        }
        return .dictionary(values)
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if case NetworkError.cancelled = error { return true }
        return false
    }

    /// The phases of an exchange the transport reported, in milliseconds.
    private static func add(_ timing: RequestTiming, to metadata: inout Logger.Metadata) {
        if let firstByte = timing.firstByte { metadata["ttfb-ms"] = "\(milliseconds(firstByte))" }
        if let reused = timing.reusedConnection { metadata["connection"] = reused ? "reused" : "new" }
        if let dns = timing.dns { metadata["dns-ms"] = "\(milliseconds(dns))" }
        if let connect = timing.connect { metadata["connect-ms"] = "\(milliseconds(connect))" }
        if let tls = timing.tlsHandshake { metadata["tls-ms"] = "\(milliseconds(tls))" }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        milliseconds(ContinuousClock.now - start)
    }
}

/// What every line of one call shows: method, URL, attempt and request id. It is worked out only
/// for a line that is written (a logger at `.info` writes failures alone), the redacted URL once
/// per call: the request and response lines show the same URL.
private struct CallSummary {
    let request: HTTPRequest
    let requestID: String
    let attempt: Int
    /// Named in the metadata when the call has a name (``RequestContext/operationName``).
    let operation: OperationName
    let redaction: Redaction
    let secrets: LazySecrets
    private var url: String?

    init(
        request: HTTPRequest, requestID: String, attempt: Int, operation: OperationName, redaction: Redaction,
        secrets: LazySecrets
    ) {
        self.operation = operation
        self.request = request
        self.requestID = requestID
        self.attempt = attempt
        self.redaction = redaction
        self.secrets = secrets
    }

    mutating func metadata() -> Logger.Metadata {
        let shown = url ?? redactedURL()
        url = shown
        var metadata: Logger.Metadata = [
            "http.method": "\(request.method.rawValue)",
            "http.url": "\(shown)",
            "attempt": "\(attempt)",
            "request-id": .string(requestID),
        ]
        if let name = operation.name { metadata["operation"] = "\(name)" }
        return metadata
    }

    private func redactedURL() -> String {
        // The known secrets too: a credential of this request quoted in its own URL. (Its
        // query's secrets are the URL redaction's; only a header's can remain.)
        let hasSensitiveHeader = request.headerFields.contains { redaction.isSensitive($0.name) }
        let redacted = request.url.map { url in
            let text = redaction.redact(url).absoluteString
            return hasSensitiveHeader ? redaction.replacing(secrets.value, in: text) : text
        }
        return redacted ?? "(no URL)"
    }
}
