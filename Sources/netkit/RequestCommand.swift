import ArgumentParser
import Foundation
import Logging
import NetworkingKit

/// `netkit request METHOD URL`: a small curl-like client built on NetworkingKit.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one request through NetworkingKit and show the answer.",
        discussion: """
            Prints the status, the response headers (secrets redacted) and the body (JSON pretty-printed).
            Redirects are followed by NetworkingKit's RedirectPolicy. The exit status is 0 for a 2xx answer,
            3, 4 or 5 for a 3xx, 4xx or 5xx answer, and 1 when no answer arrived.
            """
    )

    @Argument(help: "The HTTP method: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS.")
    var method: String

    @Argument(help: "The absolute http(s) URL.")
    var url: String

    @Option(name: .customShort("H"), help: "A request header, 'Name: value' (repeatable).")
    var header: [String] = []

    @Option(help: "A JSON body, sent with Content-Type: application/json.")
    var json: String?

    @Option(help: "A raw body: text, or @path to send a file's bytes.")
    var data: String?

    @Option(help: "The transport: ahc (AsyncHTTPClient) or urlsession.")
    var transport: TransportChoice = .ahc

    @Option(help: "Seconds to wait for the whole exchange.")
    var timeout: Double = 30

    @Option(help: "A directory for an HTTP cache kept across runs (RFC 9111); the answer's X-Cache header says HIT, MISS, REVALIDATED or STALE.")
    var cacheDir: String?

    @Flag(help: "Print the request as a runnable curl command (credentials redacted) before sending it.")
    var curl = false

    @Option(help: "The largest answer body accepted, in bytes (NetworkingKit's default: 32 MiB).")
    var maxSize: Int?

    @Option(help: "How many times to retry a failed idempotent request (RetryPolicy: backoff, jitter, Retry-After).")
    var retry: Int = 0

    @Flag(name: .shortAndLong, help: "Also show the request that was sent, each redirect followed and each retry.")
    var verbose = false

    /// Checked in `run()`, not in ArgumentParser's `validate()`, so that a mistake is one line
    /// with exit status 64 rather than a usage dump (see ``CLIError``).
    private func checkOptions() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw CLIError.usage("bad timeout \(timeout): expected a number of seconds above 0 and at most 86400")
        }
        if let maxSize, maxSize < 0 {
            throw CLIError.usage("bad --max-size \(maxSize): expected a number of bytes, 0 or more")
        }
        guard (0...10).contains(retry) else {
            throw CLIError.usage("bad --retry \(retry): expected 0 to 10")
        }
    }

    func run() async throws {
        try checkOptions()
        let prepared = try prepare()
        var middlewares: [any Middleware] = cacheDir.map {
            [HTTPCache(storage: DiskCacheStorage(directory: URL(fileURLWithPath: $0, isDirectory: true)))]
        } ?? []
        if retry > 0 {
            middlewares.append(RetryMiddleware(policy: RetryPolicy(maxAttempts: retry + 1)))
        }
        if curl {
            // Innermost, so it shows the request as the transport gets it (Accept, Content-Type...).
            middlewares.append(CurlPrinter(redaction: ResponsePrinter.redaction))
        }
        var configuration = LiveAPIClient.Configuration(
            baseURL: nil,
            transport: transport.transport,
            middlewares: middlewares,
            timeout: .milliseconds(Int64(timeout * 1000))
        )
        if let maxSize {
            configuration.maxResponseBodySize = maxSize
        }
        if verbose {
            // The library's own debug lines (a redirect followed, a retry) as `* ...` lines. The
            // logging middleware writes nothing of its own at debug here; it is there so that
            // what the inner steps log is redacted.
            configuration.middlewares.insert(
                LoggingMiddleware(
                    redaction: ResponsePrinter.redaction, requestLevel: .trace, responseLevel: .trace, failureLevel: .trace),
                at: 0)
            var logger = Logger(label: "netkit", factory: { _ in VerboseLines() })
            logger.logLevel = .debug
            configuration.logger = logger
        }
        let client = LiveAPIClient(configuration: configuration)
        if verbose {
            let shown = URL(string: url).map { ResponsePrinter.redaction.redact($0).absoluteString } ?? url
            print("> \(prepared.request.method.rawValue) \(shown)")
            for field in prepared.headers {
                print("> " + ResponsePrinter.redacted(field))
            }
            print("> (via \(transport.displayName))")
        }

        let response: HTTPResponse
        let body: Data
        do {
            let answer = try await client.response(for: prepared.request)
            (response, body) = (answer.response, answer.data)
        } catch let error as NetworkError {
            guard let failure = error.failure else { throw CLIError(error) }
            (response, body) = (failure.response, failure.body)
        }

        print(ResponsePrinter.statusLine(response))
        ResponsePrinter.headerLines(response.headerFields).forEach { print($0) }
        if let text = ResponsePrinter.bodyText(body, contentType: response.headerFields[.contentType]) {
            print("")
            print(text)
        }
        let statusClass = Int32(response.status.code / 100)
        if statusClass != 2 {
            throw ExitCode(statusClass)
        }
    }

    private struct Prepared {
        let headers: [HTTPField]
        let request: Request<Data>
    }

    /// Checks every input before anything is sent, so a mistake is one clear line.
    private func prepare() throws -> Prepared {
        guard self.method.allSatisfy({ $0.isLetter }), let method = HTTPRequest.Method(self.method.uppercased()) else {
            throw CLIError.usage("bad method '\(self.method)': expected a word such as GET or POST")
        }
        // Foundation would percent-encode a CR, LF or NUL and send the request to a path nobody typed.
        guard ControlCharacters.first(in: url) == nil else {
            throw CLIError.usage("bad URL '\(ControlCharacters.printable(url))': it contains a control character")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, URL(string: url) != nil
        else {
            throw CLIError.usage("bad URL '\(url)': expected an absolute http:// or https:// URL")
        }
        var fields: [HTTPField] = []
        for line in header {
            guard let colon = line.firstIndex(of: ":") else {
                throw CLIError.usage("bad header '\(ControlCharacters.printable(line))': expected 'Name: value'")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // Through the library's checks: HTTPField(name:value:) alone would turn a CR or LF
            // into a space and send the rest of the line as part of the value.
            let fieldName: HTTPField.Name
            do {
                fieldName = try HeaderValidation.name(name)
                try HeaderValidation.validate(value: value, of: name)
            } catch let error as NetworkError {
                throw CLIError.usage("bad header '\(ControlCharacters.printable(line))': \(Self.reason(error))")
            }
            fields.append(HTTPField(name: fieldName, value: value))
        }

        let body = try requestBody()
        return Prepared(
            headers: fields,
            // An absolute URL is sent as typed: path and query exactly, not decoded and re-encoded.
            request: Request<Data>(
                path: url,
                method: method,
                headers: Self.combined(fields),
                body: body
            ))
    }

    /// Repeated headers as one field each: cookies joined with "; " (RFC 6265), others with ", ".
    private static func combined(_ fields: [HTTPField]) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let separator = field.name == .cookie ? "; " : ", "
            headers[field.name.rawName] = headers[field.name.rawName].map { $0 + separator + field.value } ?? field.value
        }
        return headers
    }

    private func requestBody() throws -> RequestBody? {
        if json != nil, data != nil {
            throw CLIError.usage("use either --json or --data, not both")
        }
        if let json {
            do {
                _ = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            } catch {
                throw CLIError.usage("the --json body is not valid JSON")
            }
            return .data(Data(json.utf8), contentType: "application/json")
        }
        guard let data else { return nil }
        guard data.hasPrefix("@") else { return .text(data) }
        let path = String(data.dropFirst())
        do {
            return .data(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CLIError.usage("cannot read '\(path)': \(Self.reason(for: error))")
        }
    }

    /// What the library said was wrong with a header, without its "invalid request:" prefix.
    private static func reason(_ error: NetworkError) -> String {
        if case .invalidRequest(let reason) = error { return reason }
        return error.description
    }

    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        default: return "the file could not be read"
        }
    }
}

/// Prints each request it sees as a runnable curl command, credentials redacted.
private struct CurlPrinter: Middleware {
    let redaction: Redaction

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        print(request.curlDescription(body: body?.bufferedData, redaction: redaction))
        return try await next(request, body, context)
    }
}

/// `netkit request -v`: the library's log lines as `* message key=value ...`, on standard output
/// with the rest of the exchange.
private struct VerboseLines: LogHandler {
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).filter { $0.key != "request-id" }.sorted { $0.key < $1.key }
        print("* \(event.message)" + fields.map { " \($0.key)=\($0.value)" }.joined())
    }
}
