import DemoAPI
import Dispatch
import ExampleServices
import Foundation
@_spi(Transport) import NetworkingKit
import Testing

@testable import netkit

/// The `netkit` executable, run as a user runs it.
// One process at a time: each holds two reader threads and a share of the two cores.
@Suite("netkit command line", .serialized, .timeLimit(.minutes(5)))
struct NetkitCommandTests {
    struct Run {
        let status: Int32
        let output: String
        let error: String
    }

    /// The built `netkit` binary, next to the test bundle.
    static func executable() throws -> URL {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in candidates {
            let url = directory.appendingPathComponent("netkit")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw CLITestError.notBuilt
    }

    enum CLITestError: Error {
        case notBuilt
    }

    /// Runs `netkit` with `arguments`, runs `whileRunning` (given the process and the output so
    /// far) and waits for the end, without blocking a thread of the concurrency pool: the DemoAPI
    /// server it talks to may run in this process and need them.
    static func netkit(
        _ arguments: [String],
        input: String? = nil,
        whileRunning: (Process, _ output: Collected) async throws -> Void = { _, _ in }
    ) async throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        // Standard input: the text given, then its end; otherwise none at all.
        let stdin = Pipe()
        process.standardInput = stdin
        let output = Collected()
        let error = Collected()
        process.standardOutput = output.pipe
        process.standardError = error.pipe
        let exited = AsyncStream<Int32> { continuation in
            process.terminationHandler = { process in
                continuation.yield(process.terminationStatus)
                continuation.finish()
            }
        }
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        do {
            try await whileRunning(process, output)
        } catch {
            process.terminate()
            throw error
        }
        var status: Int32 = -1
        for await code in exited { status = code }
        return Run(status: status, output: await output.finished(), error: await error.finished())
    }

    /// A pipe's bytes, gathered as they arrive.
    final class Collected: Sendable {
        private struct State {
            var data = Data()
            var ended = false
            var waiter: CheckedContinuation<Void, Never>?
            /// Tasks in ``firstLine(where:)``, woken by each chunk and by the end.
            var lineWaiters: [(matches: @Sendable (Substring) -> Bool, continuation: CheckedContinuation<String?, Never>)] = []
        }

        /// The first line so far that matches, from the text collected.
        private static func line(in data: Data, where matches: (Substring) -> Bool) -> String? {
            String(decoding: data, as: UTF8.self).split(separator: "\n").first(where: matches).map(String.init)
        }

        /// Wakes the line waiters whose line has arrived, or all of them once the pipe has ended.
        private static func wake(_ state: inout State) -> [(CheckedContinuation<String?, Never>, String?)] {
            var woken: [(CheckedContinuation<String?, Never>, String?)] = []
            state.lineWaiters.removeAll { waiter in
                let line = line(in: state.data, where: waiter.matches)
                guard line != nil || state.ended else { return false }
                woken.append((waiter.continuation, line))
                return true
            }
            return woken
        }

        /// Waits for the first line that matches, as output arrives: `nil` if the output ends first.
        func firstLine(where matches: @escaping @Sendable (Substring) -> Bool) async -> String? {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> String?? in
                    if let line = Self.line(in: state.data, where: matches) { return .some(line) }
                    if state.ended { return .some(nil) }
                    state.lineWaiters.append((matches, continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        }

        let pipe = Pipe()
        private let state = LockedState(State())

        /// Reads on a Dispatch thread (reads block), outside the concurrency pool, until the end.
        init() {
            let handle = pipe.fileHandleForReading
            DispatchQueue.global().async { [state] in
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    let woken = state.withLock { state in
                        state.data.append(chunk)
                        return Self.wake(&state)
                    }
                    woken.forEach { $0.0.resume(returning: $0.1) }
                }
                let (waiter, woken) = state.withLock { state in
                    state.ended = true
                    defer { state.waiter = nil }
                    return (state.waiter, Self.wake(&state))
                }
                waiter?.resume()
                woken.forEach { $0.0.resume(returning: $0.1) }
            }
        }

        var text: String { String(decoding: state.withLock { $0.data }, as: UTF8.self) }

        /// The whole output, once the pipe has closed.
        func finished() async -> String {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Bool in
                    if !state.ended { state.waiter = continuation }
                    return state.ended
                }
                if ended { continuation.resume() }
            }
            return text
        }
    }

    @Test("request prints the status, redacted headers and pretty JSON", arguments: ["ahc", "urlsession", "nio"])
    func request(transport: String) async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit([
                "request", "GET", "\(server.baseURL.absoluteString)/echo?q=toy+story&x=%2F", "-H", "Authorization: Bearer s3cret",
                "--transport", transport, "-v",
            ])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("> Authorization: Bearer <redacted>"))
            // The secret is only in the body, where the echo server repeats it; never on a header line.
            let headerLines = run.output.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            #expect(!headerLines.contains { $0.contains("s3cret") })
            #expect(run.output.contains("HTTP 200 OK"))
            // The query goes out exactly as typed.
            #expect(run.output.contains(#""query" : "q=toy+story&x=%2F""#))
            #expect(run.output.contains("\"method\" : \"GET\""))
        }
    }

    @Test(
        "a redirect to another origin drops the API-key headers netkit redacts, and keeps the others",
        arguments: ["ahc", "urlsession", "nio"])
    func apiKeysStayOnTheirOrigin(transport: String) async throws {
        try await withDemoServer { first in
            try await withDemoServer { other in
                let target = "\(other.baseURL.absoluteString)/echo"
                let query = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
                let run = try await Self.netkit([
                    "request", "GET", "\(first.baseURL.absoluteString)/redirect/302?to=\(query)",
                    "-H", "X-API-Key: key-for-first", "-H", "X-Auth-Token: token-for-first", "-H", "X-Trace: kept",
                    "--transport", transport,
                ])
                #expect(run.status == 0, "\(run.error)")
                #expect(other.stats.count("GET /echo") == 1)
                #expect(!run.output.contains("key-for-first"))
                #expect(!run.output.contains("token-for-first"))
                #expect(run.output.contains("\"x-trace\" : \"kept\""))
            }
        }
    }

    @Test("secrets are redacted from header lines, keeping an Authorization scheme")
    func redaction() {
        #expect(ResponsePrinter.redacted(HTTPField(name: .authorization, value: "Bearer abc")) == "Authorization: Bearer <redacted>")
        #expect(ResponsePrinter.redacted(HTTPField(name: .authorization, value: "abc")) == "Authorization: <redacted>")
        #expect(ResponsePrinter.redacted(HTTPField(name: .setCookie, value: "session=1; HttpOnly")) == "Set-Cookie: <redacted>")
        #expect(ResponsePrinter.redacted(HTTPField(name: .cookie, value: "a=1")) == "Cookie: <redacted>")
        #expect(ResponsePrinter.redacted(HTTPField(name: HTTPField.Name("X-API-Key")!, value: "k")) == "X-API-Key: <redacted>")
        #expect(ResponsePrinter.redacted(HTTPField(name: .contentType, value: "text/plain")) == "Content-Type: text/plain")
    }

    @Test("request sends --json and --data @file bodies")
    func bodies() async throws {
        try await withDemoServer { server in
            let json = try await Self.netkit(["request", "POST", "\(server.baseURL.absoluteString)/echo", "--json", #"{"a":1}"#])
            #expect(json.status == 0, "\(json.error)")
            #expect(json.output.contains(#""body" : "{\"a\":1}""#))

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-\(UUID().uuidString).txt")
            try Data("from a file".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let data = try await Self.netkit(["request", "PUT", "\(server.baseURL.absoluteString)/echo", "--data", "@\(file.path)"])
            #expect(data.status == 0, "\(data.error)")
            #expect(data.output.contains(#""body" : "from a file""#))
        }
    }

    @Test(
        "--cookie-jar keeps a session across runs, in an owner-only file that shows no cookie value on screen; -u sends Basic credentials")
    func cookieJar() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-jar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let jar = folder.appendingPathComponent("cookies.json").path
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            let login = try await Self.netkit([
                "request", "POST", "\(base)/cookies/login", "--json", #"{"username":"woody","password":"andy"}"#, "--cookie-jar", jar,
            ])
            #expect(login.status == 0, "\(login.error)")
            let attributes = try FileManager.default.attributesOfItem(atPath: jar)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let session = try #require(
                try CookieJar(contentsOf: URL(fileURLWithPath: jar), keepsSessionCookies: true).cookies.first {
                    $0.name == "demo_session"
                })
            #expect(!login.output.contains(session.value))

            let me = try await Self.netkit(["request", "GET", "\(base)/cookies/me", "--cookie-jar", jar])
            #expect(me.status == 0, "\(me.error)")
            #expect(me.output.contains(#""username" : "woody""#))
            let without = try await Self.netkit(["request", "GET", "\(base)/cookies/me"])
            #expect(without.status == 4)

            let basic = try await Self.netkit(["request", "GET", "\(base)/auth/basic", "-u", "woody:andy"])
            #expect(basic.status == 0, "\(basic.error)")
            #expect(basic.output.contains(#""username" : "woody""#))
            #expect(basic.error.contains("clear text"))
        }
    }

    @Test(
        "-o saves the body to a file, -C continues a cut download, --form sends a multipart form", arguments: ["ahc", "urlsession", "nio"])
    func transfers(transport: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withDemoServer { server in
            let output = folder.appendingPathComponent("film.bin").path
            let url = "\(server.baseURL.absoluteString)/files/300000?seed=6&cut_at=100000"
            let cut = try await Self.netkit(["request", "GET", url, "-o", output, "-C", "--transport", transport])
            #expect(cut.status == 1, "\(cut.error)")
            // The server was reached, and the line says how to go on.
            #expect(cut.error.contains("was cut off before its end; run the same command again to continue it"), "\(cut.error)")
            #expect(!cut.error.contains("cannot reach"), "\(cut.error)")
            #expect(!FileManager.default.fileExists(atPath: output))
            let resumed = try await Self.netkit(["request", "GET", url, "-o", output, "-C", "--transport", transport])
            #expect(resumed.status == 0, "\(resumed.error)")
            #expect(resumed.output.contains("HTTP 206 Partial Content"))
            #expect(resumed.output.contains("Saved 300000 bytes to \(output) (continued from byte"))
            // Standard error is a pipe here, not a terminal: no progress bar.
            #expect(resumed.error.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == splitMix64Bytes(seed: 6, count: 300_000))

            let poster = folder.appendingPathComponent("poster.png")
            try Data("png bytes".utf8).write(to: poster)
            let form = try await Self.netkit([
                "request", "POST", "\(server.baseURL.absoluteString)/upload/multipart", "--transport", transport,
                "--form", "title=Luxo Jr.", "--form", "poster=@\(poster.path)", "--form", "notes=@\(poster.path);type=text/plain",
            ])
            #expect(form.status == 0, "\(form.error)")
            #expect(form.output.contains(#""name" : "title""#))
            #expect(form.output.contains(#""filename" : "poster.png""#))
            #expect(form.output.contains(#""content_type" : "image/png""#))
            #expect(form.output.contains(#""content_type" : "text/plain""#))
        }
    }

    @Test(
        "request --events reads a stream through the library: every event, a reconnection with Last-Event-ID after a drop, the end at 204; --live prints JSON lines",
        arguments: ["ahc", "urlsession", "nio"])
    func liveAnswers(transport: String) async throws {
        try await withDemoServer { server in
            // Events 1-5, then the server drops the connection midway; 6-10 after the reconnection.
            let events = try await Self.netkit([
                "request", "GET", "\(server.baseURL.absoluteString)/events?count=10&drop_after=5&retry=500", "--events",
                "--transport", transport,
            ])
            #expect(events.status == 0, "\(events.error)")
            let ids = events.output.split(separator: "\n").filter { $0.hasPrefix("id: ") }
            #expect(ids.map(String.init) == (1...10).map { "id: \($0)" })
            #expect(events.output.contains("event: tick\nid: 10\ndata: {\"n\":10}\n"))
            #expect(events.output.contains("* the connection broke ("))
            #expect(events.output.contains("* reconnected: HTTP 200 OK"))
            #expect(events.output.hasSuffix("* the server has no more events (204 No Content)\n"))
            #expect(server.stats.lastEventIDs.contains("5"))

            let lines = try await Self.netkit([
                "request", "GET", "\(server.baseURL.absoluteString)/ndjson?count=2", "--live", "--transport", transport,
            ])
            #expect(lines.status == 0, "\(lines.error)")
            #expect(lines.output.hasSuffix("{\"id\":1,\"title\":\"Item 1\"}\n{\"id\":2,\"title\":\"Item 2\"}\n"))

            let notEvents = try await Self.netkit([
                "request", "GET", "\(server.baseURL.absoluteString)/ndjson?count=2", "--events", "--transport", transport,
            ])
            #expect(notEvents.status == 1)
            #expect(notEvents.error.contains("not text/event-stream: --events reads Server-Sent Events only"), "\(notEvents.error)")
        }
    }

    @Test("--curl prints a runnable command with credentials and declared parameters redacted")
    func curl() async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit([
                "request", "POST", "\(server.baseURL.absoluteString)/echo?api_key=k3y&page=2", "--json", #"{"a":"it's"}"#,
                "-H", "Authorization: Bearer s3cret", "--curl",
            ])
            #expect(run.status == 0, "\(run.error)")
            let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("curl ") })
            #expect(line.contains("-X POST"))
            #expect(line.contains("api_key=%3Credacted%3E&page=2"))
            #expect(line.contains("-H 'Authorization: Bearer <redacted>'"))
            #expect(line.contains(#"--data-raw '{"a":"it'\''s"}'"#))
            #expect(!line.contains("s3cret") && !line.contains("k3y"))
        }
    }

    @Test("demo -v shows the library's log lines")
    func demoVerbose() async throws {
        let run = try await Self.netkit(["demo", "-v"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Sending request"))
        #expect(run.output.contains("Received response"))
        // A log line that mentions a bearer token shows it redacted.
        let logLines = run.output.split(separator: "\n").filter { $0.contains("[NetworkingKit]") }
        #expect(!logLines.isEmpty)
        let bearers = logLines.flatMap { $0.components(separatedBy: "Bearer ").dropFirst() }
        #expect(bearers.allSatisfy { $0.hasPrefix("<redacted>") })
    }

    @Test("--cache-dir keeps answers across runs: the second run is a cache hit")
    func cacheDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-cli-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withDemoServer { server in
            let arguments = ["request", "GET", "\(server.baseURL.absoluteString)/films/up", "--cache-dir", directory.path]
            let first = try await Self.netkit(arguments)
            let second = try await Self.netkit(arguments)
            #expect(first.status == 0 && second.status == 0, "\(first.error) \(second.error)")
            #expect(first.output.contains("* cache: MISS"))
            #expect(second.output.contains("* cache: HIT"))
            #expect(server.stats.count("GET /films/{id}") == 1)
        }
    }

    @Test("request -v shows each redirect followed and each retry, with declared secrets redacted")
    func verboseHopsAndRetries() async throws {
        try await withDemoServer { server in
            let base = server.baseURL.absoluteString
            // Two hops, the second to /echo?token=s3cr3t-value, the first carrying it nested.
            let hops = try await Self.netkit([
                "request", "GET", "\(base)/redirect/302?to=/redirect/302%3Fto%3D%252Fecho%253Ftoken%253Ds3cr3t-value", "-v",
            ])
            #expect(hops.status == 0, "stderr: \(hops.error)")
            let lines = hops.output.split(separator: "\n")
            let hopLines = lines.filter { $0.hasPrefix("* Following redirect") }
            #expect(hopLines.count == 2, "output: \(hops.output)")
            #expect(hopLines.last?.contains("/echo?…") == true, "output: \(hops.output)")
            // (The body is /echo's answer, which quotes the query: the server's text, shown as it is.)
            let libraryLines = lines.filter { $0.hasPrefix("* ") || $0.hasPrefix("> ") }
            #expect(!libraryLines.contains { $0.contains("s3cr3t-value") }, "output: \(hops.output)")
            // Lines a user can act on, not AsyncHTTPClient's internals ("Request was scheduled on connection ahc-el=...").
            #expect(!hops.output.contains("ahc-"), "output: \(hops.output)")

            let retries = try await Self.netkit([
                "request", "GET", "\(base)/faults/status/503?key=cli&times=2", "--retry", "2", "-v",
            ])
            #expect(retries.status == 0, "stderr: \(retries.error)")
            let retryLines = retries.output.split(separator: "\n").filter { $0.hasPrefix("* Retrying request") }
            #expect(retryLines.count == 2, "output: \(retries.output)")
            #expect(server.stats.count("GET /faults/status/{code}") == 3)
        }
    }

    @Test("request -v shows where the time went: first and last byte, and over nio the new connection and its connect time")
    func verboseTiming() async throws {
        try await withDemoServer { server in
            for transport in ["ahc", "nio"] {
                let run = try await Self.netkit(["request", "GET", "\(server.baseURL)/films", "-v", "--transport", transport])
                #expect(run.status == 0, "stderr: \(run.error)")
                let timing = run.output.split(separator: "\n").first { $0.hasPrefix("* timing: ") }
                #expect(timing?.contains("first byte ") == true && timing?.contains("last byte ") == true, "output: \(run.output)")
                let showsConnection = timing?.contains("new connection (") == true && timing?.contains("connect ") == true
                #expect(showsConnection == (transport == "nio"), "output: \(run.output)")
            }
        }
    }

    @Test("ws: each line of standard input sent, each message printed, the close handshake at its end; a refused upgrade shows its status")
    func webSocket() async throws {
        try await withDemoServer { server in
            let url = server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
            let echo = try await Self.netkit(["ws", "\(url)/ws/echo", "-v"], input: "hello\nwörld\n")
            #expect(echo.status == 0, "stderr: \(echo.error)")
            #expect(echo.output.contains("< HTTP 101 Switching Protocols"), "output: \(echo.output)")
            #expect(echo.output.hasSuffix("hello\nwörld\n"), "output: \(echo.output)")
            #expect(echo.error.contains("* closed: 1000 (normal closure)"), "stderr: \(echo.error)")
            #expect(echo.output.contains("< Sec-WebSocket-Extensions: permessage-deflate"), "output: \(echo.output)")
            let plain = try await Self.netkit(["ws", "\(url)/ws/echo", "-v", "--no-compression"], input: "hello\n")
            #expect(plain.status == 0, "stderr: \(plain.error)")
            #expect(!plain.output.contains("Sec-WebSocket-Extensions"), "output: \(plain.output)")
            #expect(plain.output.hasSuffix("hello\n"), "output: \(plain.output)")

            let closed = try await Self.netkit(["ws", "\(url)/ws/close?code=4001&reason=bye"])
            #expect(closed.status == 0)
            #expect(closed.error.contains(#"* closed: 4001 "bye""#), "stderr: \(closed.error)")

            let refused = try await Self.netkit(["ws", "\(url)/ws/auth", "-H", "Authorization: Bearer nope"])
            #expect(refused.status == 4)
            #expect(refused.output.hasPrefix("HTTP 401 Unauthorized"), "output: \(refused.output)")

            let lost = try await Self.netkit(["ws", "\(url)/ws/drop"], input: "bye\n")
            #expect(lost.status == 1)
            #expect(lost.error.contains("without a close frame"), "stderr: \(lost.error)")

            let bad = try await Self.netkit(["ws", "ftp://example.com/x"])
            #expect(bad.status == 64)
        }
    }

    @Test("--max-size bounds the answer shown: past it the request fails, raised it goes through")
    func maxSize() async throws {
        try await withDemoServer { server in
            let url = "\(server.baseURL.absoluteString)/bytes/5000"
            let refused = try await Self.netkit(["request", "GET", url, "--max-size", "4000"])
            #expect(refused.status == 1)
            #expect(refused.error.contains("4000"), "\(refused.error)")
            let raised = try await Self.netkit(["request", "GET", url, "--max-size", "6000"])
            #expect(raised.status == 0, "\(raised.error)")
            #expect(raised.output.contains("HTTP 200 OK"))
        }
    }

    @Test("an HTTP error answer is shown, with the status class as exit status")
    func errorStatus() async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit(["request", "GET", "\(server.baseURL.absoluteString)/films/cars-4"])
            #expect(run.status == 4)
            #expect(run.output.contains("HTTP 404 Not Found"))
            #expect(run.output.contains("No film with id 'cars-4'."))
        }
    }

    @Test(
        "bad input is one line on stderr and a non-zero exit",
        arguments: [
            (["request", "GET", "not a url"], "bad URL"),
            (["request", "GET", "ftp://example.com/x"], "bad URL"),
            (["request", "GET", "http://127.0.0.1:1/x", "-H", "NoColon"], "bad header"),
            (["request", "GET", "http://127.0.0.1:1/x", "-H", "Bad Name: v"], "bad header"),
            (["request", "POST", "http://127.0.0.1:1/x", "--data", "@/nonexistent/file.json"], "cannot read"),
            (["request", "POST", "http://127.0.0.1:1/x", "--json", "{nope"], "not valid JSON"),
            (["request", "G E T", "http://127.0.0.1:1/x"], "bad method"),
            (["serve", "--port", "70000"], "bad port"),
            (["request", "GET", "http://127.0.0.1:1/x", "--timeout", "inf"], "bad timeout"),
            (["request", "GET", "http://127.0.0.1:1/x", "--timeout", "0"], "bad timeout"),
            (["request", "GET", "http://127.0.0.1:1/x", "--max-size=-1"], "bad --max-size"),
            (["request", "GET", "http://127.0.0.1:1/x", "--retry", "11"], "bad --retry"),
            (["request", "GET", "http://127.0.0.1:1/x", "-C"], "needs -o/--output"),
            (["request", "GET", "http://127.0.0.1:1/x", "-o", "/nonexistent/folder/f"], "folder does not exist"),
            (["request", "POST", "http://127.0.0.1:1/x", "--form", "f=@/nonexistent/file.png"], "cannot read"),
            (["request", "POST", "http://127.0.0.1:1/x", "--form", "novalue"], "bad --form"),
            (["request", "POST", "http://127.0.0.1:1/x", "--form", "a=b", "--json", "{}"], "use one of"),
            (["bench", "--concurrency", "0"], "bad --concurrency"),
            (["bench", "--requests", "0"], "bad --requests"),
            (["bench", "--rounds", "51"], "bad --rounds"),
            (["bench", "--hedging", "5"], "bad --hedging"),
            (["bench", "--url", "not a url"], "bad URL"),
            (["bench", "--url", "http://127.0.0.1:8080/\r\nX-Injected: 1"], "control character"),
            // Header injection: swift-http-types would have sent "a  X-Injected: 1".
            (["request", "GET", "http://127.0.0.1:1/x", "-H", "X-Test: a\r\nX-Injected: 1"], "contains CR"),
            // Foundation would have sent these to /a%0D%0AX-Injected:%201 and /a%09b. (A NUL cannot
            // be in a command line argument; the library's own test covers it.)
            (["request", "GET", "http://127.0.0.1:1/a\r\nX-Injected: 1"], "control character"),
            (["request", "GET", "http://127.0.0.1:1/a\tb"], "control character"),
            // ArgumentParser's own mistakes, one line too (it printed the usage and a pointer to --help).
            (["request", "GET", "http://127.0.0.1:1/x", "--bogus"], "Unknown option '--bogus' (see --help)"),
            (["request", "GET"], "Missing expected argument '<url>' (see --help)"),
            (["request", "GET", "http://127.0.0.1:1/x", "--events", "--live"], "choose one"),
        ])
    func badInput(arguments: [String], expected: String) async throws {
        let run = try await Self.netkit(arguments)
        // A mistake in the command line is EX_USAGE, apart from "no answer" (1).
        #expect(run.status == 64, "stderr: \(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(run.error)")
        #expect(run.error.hasPrefix("Error: "), "stderr: \(run.error)")
        #expect(run.error.contains(expected), "stderr: \(run.error)")
    }

    @Test("a server that is down is one line and a non-zero exit", arguments: ["ahc", "urlsession", "nio"])
    func serverDown(transport: String) async throws {
        let run = try await withRefusingPort { port in
            try await Self.netkit(["request", "GET", "http://127.0.0.1:\(port)/films", "--transport", transport])
        }
        #expect(run.status == 1)
        #expect(run.error.split(separator: "\n").count == 1, "stderr: \(run.error)")
        #expect(run.error.contains("connection refused"), "stderr: \(run.error)")
    }

    @Test("--pin refuses a call it cannot check (http here) with one line and a non-zero exit; a malformed pin is a usage error")
    func pin() async throws {
        let pin = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        try await ByteFaultServer.withServer { server in
            for transport in ["ahc", "urlsession", "nio"] {
                let run = try await Self.netkit(["request", "GET", "\(server.baseURL)/anything", "--pin", pin, "--transport", transport])
                #expect(run.status == 1)
                #expect(run.error.split(separator: "\n").count == 1, "stderr: \(run.error)")
                #expect(run.error.contains("127.0.0.1 is pinned"), "stderr: \(run.error)")
            }
            #expect(server.receivedByteCount == 0)
            let bad = try await Self.netkit(["request", "GET", "\(server.baseURL)/anything", "--pin", "sha256/short"])
            #expect(bad.status != 0)
            #expect(bad.error.contains("not a base64 SHA-256 digest"), "stderr: \(bad.error)")
        }
    }

    @Test("serve -v logs each request, answers, and stops cleanly on Ctrl-C, logging no error")
    func serve() async throws {
        let run = try await Self.netkit(["serve", "--port", "0", "-v"]) { process, output in
            // The line that names the port, as soon as it is written (the suite's time limit bounds it).
            let line = await output.firstLine { $0.hasPrefix("DemoAPI listening on ") }
            let baseURL = line.flatMap { $0.split(separator: " ").dropFirst(3).first }.flatMap { URL(string: String($0)) }
            let url = try #require(baseURL, "no listening line in: \(output.text)")
            let films = try await LiveAPIClient(baseURL: url).request(PixarAPIEndpoint.films, as: [PixarFilm].self)
            #expect(films.count == 8)
            process.interrupt()
        }
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("DemoAPI stopped."))
        // The routes, so that a newcomer does not have to read the source to find them.
        #expect(run.output.contains("Routes (also at GET http://127.0.0.1:"))
        #expect(run.output.contains("\n  GET /events "), "stdout: \(run.output)")
        // -v promised a line per request and logged none; a clean Ctrl-C logged two errors.
        #expect(run.error.contains("hb.request.method=GET hb.request.path=/films"), "stderr: \(run.error)")
        #expect(!run.error.contains(" error "), "stderr: \(run.error)")
    }

    @Test("--help wraps whole paragraphs and names each option's value")
    func help() async throws {
        for command in [["--help"], ["request", "--help"], ["serve", "--help"]] {
            let run = try await Self.netkit(command)
            #expect(run.status == 0, "\(run.error)")
            // The text before USAGE: wrapped by ArgumentParser only, never by a line break of ours
            // mid-sentence (such a line ended in a comma or a word, then a short line followed).
            let overview = run.output.components(separatedBy: "USAGE:").first ?? ""
            let lines = overview.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !next.isEmpty {
                #expect(line.count + 1 + (next.split(separator: " ").first?.count ?? 0) > 70, "wrapped early: \(line)")
            }
        }
        let request = try await Self.netkit(["request", "--help"])
        #expect(request.output.contains("-H <header>"))
        #expect(!request.output.contains("<H>"))
    }

    @Test("serve on a port in use is one line and a non-zero exit")
    func serveOnBusyPort() async throws {
        try await withDemoServer { server in
            // It exits by itself; a server that somehow started would be stopped at its listening line.
            let run = try await Self.netkit(["serve", "--port", "\(server.port)"]) { process, output in
                if await output.firstLine(where: { $0.hasPrefix("DemoAPI listening on ") }) != nil {
                    process.interrupt()
                }
            }
            #expect(run.status != 0)
            #expect(run.error.split(separator: "\n").count == 1, "stderr: \(run.error)")
            #expect(run.error.contains("cannot listen on 127.0.0.1:\(server.port)"), "stderr: \(run.error)")
        }
    }

    @Test("bench measures each scenario over every transport, as ratios to raw AsyncHTTPClient and raw URLSession")
    func bench() async throws {
        let run = try await Self.netkit(["bench", "--requests", "40", "--concurrency", "4", "--rounds", "1"])
        #expect(run.status == 0, "stderr: \(run.error)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // NIOTransport is measured against raw AsyncHTTPClient, the client it replaces.
        for (transport, raw) in [("AsyncHTTPClient", "AsyncHTTPClient"), ("URLSession", "URLSession"), ("NIOTransport", "AsyncHTTPClient")]
        {
            let title = try #require(lines.firstIndex(of: transport), "output: \(run.output)")
            let rows = Array(lines[(title + 2)...].prefix { !$0.isEmpty })
            #expect(rows.count == 6, "output: \(run.output)")
            // The baseline is the HTTP library itself, not NetworkingKit's own transport.
            #expect(rows.first?.contains("raw \(raw)") == true, "output: \(run.output)")
            #expect(rows.first?.hasSuffix(" 1.00") == true)
            #expect(rows.dropFirst().first?.contains("bare transport") == true)
            #expect(rows.dropLast().last?.contains("client + full stack, logging at info") == true)
            #expect(rows.last?.contains("client + full stack, FastJSONDecoder") == true)
        }
    }

    @Test("bench --url measures a running server, and every request reaches it")
    func benchAgainstServer() async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit([
                "bench", "--url", server.baseURL.absoluteString, "--transport", "ahc",
                "--requests", "20", "--concurrency", "2", "--rounds", "1",
            ])
            #expect(run.status == 0, "stderr: \(run.error)")
            #expect(run.output.contains("the server at \(server.baseURL.absoluteString)"))
            #expect(!run.output.contains("URLSession"))
            // 6 scenarios, each warmed up with 20 requests and measured with 20: none answered by
            // the cache or shared, so the figures are of real exchanges.
            #expect(server.stats.count("GET /todos/{id}") == 240)
        }
    }

    @Test("bench --answer medium gets every todo each time, and no request is shared or answered by the cache")
    func benchMediumAnswer() async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit([
                "bench", "--url", server.baseURL.absoluteString, "--transport", "urlsession", "--answer", "medium",
                "--requests", "20", "--concurrency", "2", "--rounds", "1",
            ])
            #expect(run.status == 0, "stderr: \(run.error)")
            #expect(run.output.contains("GET /todos (200 todos"))
            #expect(run.output.contains("client + full stack, logging at info"))
            // 6 scenarios, each warmed up with 20 requests and measured with 20, all of them the list.
            #expect(server.stats.count("GET /todos") == 240)
            #expect(server.stats.count("GET /todos/{id}") == 0)
        }
    }

    @Test("bench --hedging: three modes over a stalling route, every request counted by the server")
    func benchHedging() async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit(["bench", "--url", server.baseURL.absoluteString, "--hedging", "100", "--transport", "nio"])
            #expect(run.status == 0, "stderr: \(run.error)")
            for mode in ["no hedging", "hedged after 50 ms", "hedged at the observed p95"] {
                #expect(run.output.contains("  \(mode) "), "output: \(run.output)")
            }
            // 100 per mode, and the hedges besides; the unhedged mode sent exactly 100.
            #expect(run.output.contains(" 100 (+0.0 %)"), "output: \(run.output)")
            #expect(server.stats.count("GET /faults/stall") >= 300)
        }
    }

    @Test("demo runs the tour and exits 0")
    func demo() async throws {
        let run = try await Self.netkit(["demo"])
        #expect(run.status == 0, "\(run.error)")
        for expected in [
            "List the films", "Follow a redirect", "3 attempts reached the server", "RequestDeduplicator sent 1 request",
            "1 refresh, then all 5 succeeded", "second: from the cache", "revalidated with If-None-Match", "Create a todo",
            "NetworkError.notFound", "NetworkError.validationFailed",
            // The Last-Event-ID is the last event the client read: 3, or an earlier one when
            // AsyncHTTPClient lost what its buffers held as the connection was cut.
            "200 todos in 4 pages", "events 1, 2, 3, 4, 5, 6:", "with Last-Event-ID: ", "and got the rest",
            "bob heard \"Hi Bob! Dinner at Pizza Planet?\"", "alice heard \"To infinity, and beyond!\"", "Done:",
        ] {
            #expect(run.output.contains(expected), "missing \(expected)")
        }
    }
}
