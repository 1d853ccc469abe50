import DemoAPI
import Dispatch
import Foundation
import Testing

/// The `netkit` executable, run as a user runs it.
@Suite("netkit command line")
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

    /// Runs `netkit` with `arguments` and waits for it without blocking a thread of the
    /// concurrency pool: the DemoAPI server it talks to runs in this process and needs them.
    static func netkit(_ arguments: [String]) async throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let exited = AsyncStream<Int32> { continuation in
            process.terminationHandler = { process in
                continuation.yield(process.terminationStatus)
                continuation.finish()
            }
        }
        try process.run()
        async let out = readAll(output)
        async let err = readAll(error)
        var status: Int32 = -1
        for await code in exited { status = code }
        return Run(status: status, output: String(decoding: await out, as: UTF8.self), error: String(decoding: await err, as: UTF8.self))
    }

    /// Reads a pipe to its end on a Dispatch thread, outside the concurrency pool.
    static func readAll(_ pipe: Pipe) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: pipe.fileHandleForReading.readDataToEndOfFile())
            }
        }
    }

    @Test("request prints the status, redacted headers and pretty JSON", arguments: ["ahc", "urlsession"])
    func request(transport: String) async throws {
        try await withDemoServer { server in
            let run = try await Self.netkit([
                "request", "GET", "\(server.baseURL.absoluteString)/echo?q=toy", "-H", "Authorization: Bearer s3cret",
                "--transport", transport, "-v",
            ])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("> Authorization: Bearer <redacted>"))
            #expect(!run.output.contains("s3cret") || run.output.contains("\"authorization\" : \"Bearer s3cret\""))
            #expect(run.output.contains("HTTP 200 OK"))
            #expect(run.output.contains("\"method\" : \"GET\""))
        }
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
        ])
    func badInput(arguments: [String], expected: String) async throws {
        let run = try await Self.netkit(arguments)
        #expect(run.status != 0)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(run.error)")
        #expect(run.error.hasPrefix("Error: "), "stderr: \(run.error)")
        #expect(run.error.contains(expected), "stderr: \(run.error)")
    }

    @Test("a server that is down is one line and a non-zero exit", arguments: ["ahc", "urlsession"])
    func serverDown(transport: String) async throws {
        let port = try await closedPort()
        let run = try await Self.netkit(["request", "GET", "http://127.0.0.1:\(port)/films", "--transport", transport])
        #expect(run.status == 1)
        #expect(run.error.split(separator: "\n").count == 1, "stderr: \(run.error)")
        #expect(run.error.contains("connection refused"), "stderr: \(run.error)")
    }

    @Test("demo runs the tour and exits 0")
    func demo() async throws {
        let run = try await Self.netkit(["demo"])
        #expect(run.status == 0, "\(run.error)")
        for expected in ["List the films", "Create a todo", "NetworkError.notFound", "NetworkError.validationFailed", "Done:"] {
            #expect(run.output.contains(expected), "missing \(expected)")
        }
    }
}
