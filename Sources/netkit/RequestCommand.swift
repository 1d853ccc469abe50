#if DemoAPI
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
        // One line per paragraph: ArgumentParser wraps each to the terminal and keeps every line break.
        discussion: [
            "Prints the status, the response headers (secrets redacted) and the body (JSON pretty-printed), or saves"
                + " the body to a file with -o (and continues an interrupted download with -C).",
            "With --events, a Server-Sent Events stream is printed event by event, and reconnected (with"
                + " Last-Event-ID) when the connection drops, until the server answers 204; with --live, any answer"
                + " (JSON lines) is printed as it arrives.",
            "Files given with --data @path and --form name=@path are streamed from disk. A progress bar is drawn on"
                + " standard error when it is a terminal.",
            "Redirects are followed by NetworkingKit's RedirectPolicy. The exit status is 0 for a 2xx answer, 3, 4 or"
                + " 5 for a 3xx, 4xx or 5xx answer, and 1 when no answer arrived.",
        ].joined(separator: "\n\n")
    )

    @Argument(help: "The HTTP method: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS.")
    var method: String

    @Argument(help: "The absolute http(s) URL.")
    var url: String

    @Option(name: .customShort("H"), help: ArgumentHelp("A request header, 'Name: value' (repeatable).", valueName: "header"))
    var header: [String] = []

    @Option(help: "A JSON body, sent with Content-Type: application/json.")
    var json: String?

    @Option(help: "A raw body: text, or @path to stream a file from disk.")
    var data: String?

    @Option(help: "A multipart/form-data field (repeatable): name=value, or name=@path[;type=content/type] for a file streamed from disk.")
    var form: [String] = []

    @Flag(
        help:
            "Read a Server-Sent Events stream: print each event as it arrives, reconnect when the connection drops (a '* reconnecting' line says when and why), stop at the server's 204."
    )
    var events = false

    @Flag(help: "Print the answer chunk by chunk as it arrives (JSON lines, logs): for answers that never end.")
    var live = false

    @Option(
        name: .shortAndLong,
        help: "Save the answer's body to this file (written beside it, moved into place when complete) instead of printing it.")
    var output: String?

    @Flag(name: .customShort("C"), help: "With --output: keep an interrupted download and continue it next time (Range + If-Range).")
    var `continue` = false

    @Option(help: "The transport: ahc (AsyncHTTPClient), urlsession or nio (NIOTransport).")
    var transport: TransportChoice = .ahc

    @Option(
        help: "Seconds to wait for the whole exchange; with -o, --events or --live, for the head and then for each next part of the body.")
    var timeout: Double = 30

    @Option(
        help: ArgumentHelp(
            "A directory for an HTTP cache kept across runs (RFC 9111); a line '* cache: ...' after the status"
                + " says HIT, MISS, REVALIDATED or STALE.")
    )
    var cacheDir: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Basic credentials, 'name:password' (RFC 7617); sent to the URL's origin only, over http too (a warning says so).",
            valueName: "name:password"))
    var user: String?

    @Option(
        help: ArgumentHelp(
            "A file of cookies kept across runs, as curl's --cookie-jar: read before the request, written (owner-only)"
                + " when the server sets or deletes one, session cookies included.",
            valueName: "file"))
    var cookieJar: String?

    @Option(
        help: ArgumentHelp(
            "A public-key pin of the URL's host, 'sha256/<base64>' (repeatable: add a backup); a redirect to another host"
                + " is not pinned. Checked by nio; ahc and urlsession on Linux cannot check pins, and refuse the call.",
            valueName: "pin"))
    var pin: [String] = []

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
        if `continue`, output == nil {
            throw CLIError.usage("-C/--continue needs -o/--output: a download can only be continued into a file")
        }
        if [events, live, output != nil].filter({ $0 }).count > 1 {
            throw CLIError.usage("--events, --live and -o/--output are different ways to read an answer: choose one")
        }
    }

    func run() async throws {
        try checkOptions()
        let prepared = try prepare()
        var middlewares: [any Middleware] =
            cacheDir.map {
                [HTTPCache(storage: DiskCacheStorage(directory: URL(fileURLWithPath: $0, isDirectory: true)))]
            } ?? []
        if let cookieJar {
            // Outside the cache, so that its entries are partitioned by the cookies sent.
            let jar = try CookieJar(contentsOf: URL(fileURLWithPath: cookieJar), keepsSessionCookies: true)
            middlewares.insert(jar, at: 0)
        }
        if let user {
            guard let colon = user.firstIndex(of: ":") else {
                throw CLIError.usage("bad --user: expected 'name:password'")
            }
            let isHTTP = URL(string: url)?.scheme?.lowercased() == "http"
            if isHTTP {
                FileHandle.standardError.write(Data("warning: Basic credentials go over http in clear text\n".utf8))
            }
            // The URL's own origin: the client has no base URL here.
            let basic = try BasicAuthentication(
                username: String(user[..<colon]), password: String(user[user.index(after: colon)...]),
                origins: URL(string: url).map { [$0] }, allowsHTTP: isHTTP)
            middlewares.insert(basic, at: 0)
        }
        if retry > 0 {
            middlewares.append(RetryMiddleware(policy: RetryPolicy(maxAttempts: retry + 1)))
        }
        if curl {
            // Innermost, so it shows the request as the transport gets it (Accept, Content-Type...).
            middlewares.append(CurlPrinter(redaction: ResponsePrinter.redaction))
        }
        var configuration = LiveAPIClient.Configuration(
            baseURL: nil,
            transport: try transport.transport(pinning: pin, for: url),
            middlewares: middlewares,
            timeout: .milliseconds(Int64(timeout * 1000))
        )
        if let maxSize {
            configuration.maxResponseBodySize = maxSize
        }
        if verbose {
            configuration.showVerboseLines()
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

        if let output {
            try await download(with: client, request: prepared.request, to: output)
            return
        }
        let response: HTTPResponse
        let body: Data
        var cacheStatus: CacheStatus?
        var timing: RequestTiming?
        do {
            var request = prepared.request
            request.options.uploadProgress = ProgressBar.forTerminal(label: "upload")?.handler
            if events {
                do {
                    try await Self.printEvents(client.events(request).updates, verbose: verbose)
                } catch NetworkError.decodingFailed(let failure) where failure.typeName == "ServerSentEvent" {
                    throw CLIError("\(failure.reason): --events reads Server-Sent Events only; --live prints any answer as it arrives")
                }
                return
            }
            if live {
                // Streamed: never stored by --cache-dir, no size limit, shown as it arrives.
                let answer = try await client.bytes(request)
                print(ResponsePrinter.statusLine(answer.response))
                ResponsePrinter.headerLines(answer.headerFields).forEach { print($0) }
                print("")
                try await Self.printLive(answer)
                return
            }
            let answer = try await client.response(request)
            (response, body, cacheStatus, timing) = (answer.response, answer.data, answer.cacheStatus, answer.timing)
        } catch let error as NetworkError {
            guard let failure = error.failure else { throw CLIError(error) }
            (response, body) = (failure.response, failure.body)
        }

        print(ResponsePrinter.statusLine(response))
        if let cacheStatus { print("* cache: \(cacheStatus)") }
        if verbose, let timing { print("* timing: " + ResponsePrinter.timing(timing)) }
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

    /// Prints each chunk of an answer (JSON lines, logs) as soon as it arrives.
    private static func printLive(_ answer: StreamedResponse) async throws {
        for try await chunk in answer.body {
            print(String(decoding: chunk, as: UTF8.self), terminator: "")
            fflush(nil)  // every stream: `stdout` itself is not concurrency-safe to name
        }
    }

    /// Prints a Server-Sent Events stream as the library reads it: the first answer's head, each
    /// event (`event`, `id`, `data` lines and a blank line), each reconnection, and with `verbose`
    /// the server's comments (heartbeats).
    private static func printEvents(_ updates: ServerSentEvents.Updates, verbose: Bool) async throws {
        var connections = 0
        for try await update in updates {
            switch update {
            case .connected(let response):
                connections += 1
                if connections == 1 {
                    print(ResponsePrinter.statusLine(response))
                    ResponsePrinter.headerLines(response.headerFields).forEach { print($0) }
                    print("")
                } else {
                    print("* reconnected: \(ResponsePrinter.statusLine(response))")
                }
            case .event(let event):
                var lines = ["event: \(event.event)"]
                if !event.id.isEmpty { lines.append("id: \(event.id)") }
                lines += event.data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
                print(lines.joined(separator: "\n") + "\n")
            case .comment(let text):
                if verbose { print(text.isEmpty ? "* comment" : "* comment: \(text)") }
            case .reconnecting(let wait, let reason):
                let why = reason.map { "the connection broke (\($0.localizedDescription))" } ?? "the server closed the connection"
                print("* \(why); reconnecting in \(wait.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
            }
            fflush(nil)  // every stream: `stdout` itself is not concurrency-safe to name
        }
        print("* the server has no more events (204 No Content)")
    }

    /// `-o FILE`: the body streamed to a file, with a progress bar on a terminal; the status line
    /// and headers printed as for any answer.
    private func download(with client: LiveAPIClient, request: Request<Data>, to output: String) async throws {
        let destination = URL(fileURLWithPath: output)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.deletingLastPathComponent().path, isDirectory: &isFolder),
            isFolder.boolValue
        else {
            throw CLIError.usage("bad --output '\(output)': its folder does not exist")
        }
        var request = request
        request.options.uploadProgress = ProgressBar.forTerminal(label: "upload")?.handler
        let file: DownloadedFile
        do {
            file = try await client.download(
                request, to: destination, resumable: `continue`,
                progress: ProgressBar.forTerminal(label: "download")?.handler)
        } catch let error as NetworkError {
            guard let failure = error.failure else { throw Self.downloadError(error, continuing: `continue`) }
            print(ResponsePrinter.statusLine(failure.response))
            ResponsePrinter.headerLines(failure.response.headerFields).forEach { print($0) }
            throw ExitCode(Int32(failure.status.code / 100))
        }
        print(ResponsePrinter.statusLine(file.response))
        ResponsePrinter.headerLines(file.response.headerFields).forEach { print($0) }
        print("")
        let resumed = file.resumedFrom > 0 ? " (continued from byte \(file.resumedFrom))" : ""
        print("Saved \(file.size) bytes to \(output)\(resumed)")
    }

    /// A download that failed, said in a line; one cut midway says how to continue it.
    private static func downloadError(_ error: NetworkError, continuing: Bool) -> CLIError {
        let message = CLIError(error).description
        // Cut once its body had started: a failure before it has nothing to continue.
        guard case .transport(let failure) = error, failure.kind == .truncatedBody else { return CLIError(error) }
        return CLIError(
            message
                + (continuing
                    ? "; run the same command again to continue it (kept when the server gave the file a strong ETag or Last-Modified)"
                    : "; with -C, the part received is kept and the next run continues it"))
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
        let fields = try Self.fields(from: header)

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

    /// `-H` lines as fields, through the library's checks; a bad one is a usage error.
    static func fields(from lines: [String]) throws -> [HTTPField] {
        var fields: [HTTPField] = []
        for line in lines {
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
        return fields
    }

    /// Repeated headers as one field each: cookies joined with "; " (RFC 6265), others with ", ".
    static func combined(_ fields: [HTTPField]) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let separator = field.name == .cookie ? "; " : ", "
            headers[field.name.rawName] = headers[field.name.rawName].map { $0 + separator + field.value } ?? field.value
        }
        return headers
    }

    private func requestBody() throws -> RequestBody? {
        guard [json != nil, data != nil, !form.isEmpty].filter({ $0 }).count <= 1 else {
            throw CLIError.usage("use one of --json, --data or --form")
        }
        if let json {
            do {
                _ = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            } catch {
                throw CLIError.usage("the --json body is not valid JSON")
            }
            return .data(Data(json.utf8), contentType: "application/json")
        }
        if !form.isEmpty { return .multipart(try multipartForm()) }
        guard let data else { return nil }
        guard data.hasPrefix("@") else { return .text(data) }
        // Streamed from disk, never read whole; checked now so a bad path is one clear line.
        let file = try checkedFile(String(data.dropFirst()))
        return .file(file, contentType: "application/octet-stream")
    }

    /// `--form name=value` and `--form name=@path[;type=...]`, in order.
    private func multipartForm() throws -> MultipartFormData {
        var multipart = MultipartFormData()
        for field in form {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw CLIError.usage("bad --form '\(ControlCharacters.printable(field))': expected name=value or name=@path")
            }
            let name = String(field[..<equals])
            let value = String(field[field.index(after: equals)...])
            guard value.hasPrefix("@") else {
                multipart.append(value, name: name)
                continue
            }
            var path = String(value.dropFirst())
            var contentType: String?
            if let semicolon = path.range(of: ";type=", options: .backwards) {
                contentType = String(path[semicolon.upperBound...])
                path = String(path[..<semicolon.lowerBound])
                guard let type = contentType, !type.isEmpty, ControlCharacters.first(in: type) == nil else {
                    throw CLIError.usage("bad --form '\(ControlCharacters.printable(field))': empty or invalid type")
                }
            }
            try multipart.append(fileAt: checkedFile(path), name: name, contentType: contentType)
        }
        return multipart
    }

    /// The file at `path`, or a usage error saying why it cannot be sent.
    private func checkedFile(_ path: String) throws -> URL {
        let file = URL(fileURLWithPath: path)
        do {
            _ = try HTTPBody.file(at: file)
        } catch NetworkError.fileFailed(let failure) {
            let reason: String
            switch failure.reason {
            case .notFound: reason = "no such file"
            case .notAFile: reason = "not a regular file"
            default: reason = failure.underlying.map(Self.reason(for:)) ?? "the file could not be read"
            }
            throw CLIError.usage("cannot read '\(path)': \(reason)")
        }
        return file
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
    ) async throws -> HTTPAnswer {
        print(request.curlDescription(body: body?.bufferedData, redaction: redaction))
        return try await next(request, body, context)
    }
}
#endif
