#if DemoAPI
import ArgumentParser
import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import NIOPosix

/// `netkit bench`: what the client and its middlewares cost per request over a real loopback
/// connection, as ratios to the bare transport measured in the same run.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the client's cost per request against raw AsyncHTTPClient and raw URLSession, over loopback.",
        discussion: """
            Each transport runs six scenarios, GET /todos/{id} (or GET /todos with --answer medium) \
            decoded each time: the HTTP library \
            used directly (raw AsyncHTTPClient, or raw URLSession; raw AsyncHTTPClient for NIOTransport), NetworkingKit's bare transport, \
            the client, the client with logging, metrics and tracing (nothing bootstrapped), and the \
            client with the whole default middleware stack logging at info, all decoding with \
            JSONDecoder; then the whole stack again with FastJSONDecoder, as an app runs it. Rounds are interleaved \
            and the median round is reported; "vs raw" is throughput as a ratio to the raw library, \
            "CPU vs raw" the process's CPU time per request as a ratio read the same way (below 1 is \
            dearer). \
            With --url, any server answering GET /todos/{id} with a todo (and GET /todos with a list \
            of them) will do (nginx: see the \
            README). Build with -c release for figures worth quoting. The allocation and instruction counts per call are \
            in the Benchmarks package (swift package benchmark).
            """
    )

    @Option(help: "A transport to measure: ahc, urlsession or nio; repeat for several (default: all three).")
    var transport: [TransportChoice] = []

    @Option(help: "Requests per scenario and round (1 to 1000000).")
    var requests = 2000

    @Option(help: "Requests in flight at once (1 to 256).")
    var concurrency = 8

    @Option(help: "Rounds per scenario; the median is reported (1 to 50).")
    var rounds = 5

    @Option(
        help:
            "Then run the last scenario for this many requests more and report the process's RSS after the first 10000 and at the end (Linux)."
    )
    var soak: Int?

    @Option(help: "Only the scenario of this name, or those whose name contains this text, besides the baseline (for profiling).")
    var only: String?

    @Option(help: "The answer each request gets: small (GET /todos/{id}, one todo) or medium (GET /todos, 200 todos, about 14 KB).")
    var answer: BenchAnswer = .small

    @Flag(help: "Also the full stack with each of its middlewares left out in turn: what each costs.")
    var breakdown = false

    @Flag(
        help:
            "Run each worker on one of SwiftNIO's shared event loops (NIOTransport.LoopExecutor), the loops both SwiftNIO transports connect on, rather than on Swift's global executor."
    )
    var onEventLoops = false

    @Option(help: "The base URL of a running DemoAPI (netkit serve) to measure against, instead of one in this process.")
    var url: String?

    @Option(
        help:
            "Instead, download this many bytes of /files/{n} to a file: raw AsyncHTTPClient against LiveAPIClient.download over the first --transport (ahc by default; urlsession is not measured this way)."
    )
    var download: Int?

    @Option(
        help:
            "Instead, read this many Server-Sent Events and as many JSON lines from memory through LiveAPIClient (no network), against a plain split of the same bytes into lines."
    )
    var parse: Int?

    @Option(help: "With --download and --url, the path of the file on that server (default: /files/{n}).")
    var downloadPath: String?

    @Option(
        help:
            "Instead, send this many GETs one after another to /faults/stall, where one in 90 (1.1 %) stalls for a second: without hedging, hedged after 50 ms, and hedged at the observed p95 (HedgingMiddleware), over the first --transport (ahc by default)."
    )
    var hedging: Int?

    /// Checked in `run()`, not in ArgumentParser's `validate()`, so that a mistake is one line
    /// with exit status 64 rather than a usage dump (see ``CLIError``).
    private func checkOptions() throws {
        guard (1...1_000_000).contains(requests) else {
            throw CLIError.usage("bad --requests \(requests): expected 1 to 1000000")
        }
        guard (1...256).contains(concurrency) else {
            throw CLIError.usage("bad --concurrency \(concurrency): expected 1 to 256")
        }
        guard (1...50).contains(rounds) else {
            throw CLIError.usage("bad --rounds \(rounds): expected 1 to 50")
        }
        if let soak, !(1...10_000_000).contains(soak) {
            throw CLIError.usage("bad --soak \(soak): expected 1 to 10000000")
        }
        if let url { _ = try Self.baseURL(url) }
        if let parse, !(1_000...100_000_000).contains(parse) {
            throw CLIError.usage("bad --parse \(parse): expected 1000 to 100000000")
        }
        if let download, download < 1 {
            throw CLIError.usage("bad --download \(download): expected a number of bytes above 0")
        }
        if let hedging, !(100...1_000_000).contains(hedging) {
            throw CLIError.usage("bad --hedging \(hedging): expected 100 to 1000000")
        }
    }

    func run() async throws {
        try checkOptions()
        do {
            if let parse {
                try await measureParse(count: parse)
            } else if let hedging {
                if let url {
                    try await measureHedging(baseURL: Self.baseURL(url), requests: hedging)
                } else {
                    try await DemoServer.withServer { server in try await measureHedging(baseURL: server.baseURL, requests: hedging) }
                }
            } else if let download {
                if let url {
                    try await measureDownload(baseURL: Self.baseURL(url), size: download)
                } else {
                    try await DemoServer.withServer { server in try await measureDownload(baseURL: server.baseURL, size: download) }
                }
            } else if let url {
                try await measure(baseURL: Self.baseURL(url), server: "the server at \(url)")
            } else {
                try await DemoServer.withServer { server in
                    try await measure(baseURL: server.baseURL, server: "an in-process DemoAPI (\(server.baseURL))")
                }
            }
        } catch let error as NetworkError {
            throw CLIError("the benchmark failed: \(CLIError(error).description)")
        } catch let error as CLIError {
            throw error
        } catch {
            // A status or decoding failure of the bare-transport scenario, or a server that would not start.
            throw CLIError("the benchmark failed: \(error)")
        }
    }

    private func measureDownload(baseURL: URL, size: Int) async throws {
        let path = downloadPath ?? "/files/\(size)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        print("netkit bench --download: GET \(path) to a file, \(rounds) rounds each, interleaved, against \(baseURL).")
        let url = baseURL.appendingPathComponent(String(path.drop { $0 == "/" }))
        let choice = transport.first ?? .ahc
        let (raw, client) = try await BenchDownload(url: url, folder: folder, transport: choice.transport).measure(rounds: rounds)
        print(String(format: "  raw AsyncHTTPClient, write(2) per buffer: %8.1f MB/s", raw))
        print("  LiveAPIClient.download over \(choice.displayName): " + String(format: "%8.1f MB/s  (%.2f of raw)", client, client / raw))
    }

    private func measureHedging(baseURL: URL, requests: Int) async throws {
        let choice = transport.first ?? .ahc
        print(
            "netkit bench --hedging: \(requests) GETs of /faults/stall one after another (one in 90 stalls for 1 s) over \(choice.displayName), against \(baseURL)."
        )
        let rows = try await BenchHedging(baseURL: baseURL, transport: choice.transport, requests: requests).measure()
        func milliseconds(_ duration: Duration) -> Double { duration.seconds * 1000 }
        print("  mode                          p50 ms    p99 ms  p99.9 ms   requests sent")
        let baseline = rows.first
        for row in rows {
            let extra = baseline.map { Double(row.sent - $0.sent) / Double($0.sent) * 100 } ?? 0
            let p99 = baseline.map { (1 - milliseconds(row.percentile(0.99)) / milliseconds($0.percentile(0.99))) * 100 } ?? 0
            print(
                String(
                    format: "  %@ %8.2f  %8.2f  %8.2f   %6d (%+.1f %%)  p99 %.0f %% lower",
                    row.name.padding(toLength: 28, withPad: " ", startingAt: 0),
                    milliseconds(row.percentile(0.5)), milliseconds(row.percentile(0.99)), milliseconds(row.percentile(0.999)), row.sent,
                    extra, p99))
        }
    }

    private func measureParse(count: Int) async throws {
        print("netkit bench --parse: \(count) events and \(count) JSON lines from memory, \(rounds) rounds, the order rotated.")
        let (split, events, lines) = try await BenchParse(count: count).measure(rounds: rounds)
        print(String(format: "  plain split into lines:     %8.1f MB/s  (%d lines)", split.megabytesPerSecond, split.records))
        print(
            String(
                format: "  events(_:), SSE framing:    %8.1f MB/s  (%d events, %.2f of the split)", events.megabytesPerSecond,
                events.records, events.megabytesPerSecond / split.megabytesPerSecond))
        print(String(format: "  lines(_:as:), decoded:      %8.1f MB/s  (%d values)", lines.megabytesPerSecond, lines.records))
        if let resident = Self.residentMegabytes() { print(String(format: "  RSS at the end: %.1f MB", resident)) }
    }

    private func measure(baseURL: URL, server: String) async throws {
        print(
            "netkit bench: \(requests) × \(answer.summary) per scenario and round, \(concurrency) at a time, \(rounds) rounds, against \(server)."
        )
        #if DEBUG
        print("Note: this is a debug build; `swift run -c release --traits DemoAPI netkit bench` gives figures worth quoting.")
        #endif
        var executors: [any Sendable] = []
        if onEventLoops {
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
                throw CLIError.usage("--on-event-loops needs task executors (macOS 15 and later)")
            }
            executors = MultiThreadedEventLoopGroup.singleton.makeIterator().map(NIOTransport.LoopExecutor.init)
        }
        let load = BenchLoad(requests: requests, concurrency: concurrency, executors: executors)
        let warmUp = BenchLoad(requests: min(requests, concurrency * 20), concurrency: concurrency, executors: executors)
        for choice in transport.isEmpty ? TransportChoice.allCases : transport {
            let all = BenchScenario.all(baseURL: baseURL, choice: choice, answer: answer, breakdown: breakdown)
            // A name given whole picks that scenario alone ("client"), otherwise every name containing it.
            let exact = all.contains { $0.name == only }
            let scenarios = all.enumerated()
                .filter { index, scenario in
                    index == 0 || only.map { exact ? scenario.name == $0 : scenario.name.contains($0) } ?? true
                }
                .map(\.element)
            // Connections opened and code paths warmed before anything counts.
            for scenario in scenarios { _ = try await warmUp.run(scenario) }
            var rounds = [[BenchRound]](repeating: [], count: scenarios.count)
            for round in 0..<self.rounds {
                // Interleaved, and each round starting one scenario further on, so that a slow
                // moment of the machine, or going first, falls on every scenario alike.
                for offset in scenarios.indices {
                    let index = (round + offset) % scenarios.count
                    rounds[index].append(try await load.run(scenarios[index]))
                }
            }
            let summaries = zip(scenarios, rounds).map { BenchSummary(scenario: $0.name, rounds: $1) }
            print("")
            for line in BenchReport(transport: choice.displayName, summaries: summaries).lines { print(line) }
            if let soak, let scenario = scenarios.last {
                try await Self.soak(scenario, requests: soak, concurrency: concurrency)
            }
        }
    }

    /// Memory under sustained load: the RSS after 10,000 requests and after `requests`, in one
    /// process, so that the allocator's arenas are warm in both readings.
    private static func soak(_ scenario: BenchScenario, requests: Int, concurrency: Int) async throws {
        let first = min(10_000, requests)
        _ = try await BenchLoad(requests: first, concurrency: concurrency).run(scenario)
        let early = residentMegabytes()
        var done = first
        while done < requests {
            let step = min(50_000, requests - done)
            _ = try await BenchLoad(requests: step, concurrency: concurrency).run(scenario)
            done += step
        }
        let late = residentMegabytes()
        if let early, let late {
            print(
                String(
                    format: "  soak, %@: RSS %.1f MB after %d requests, %.1f MB after %d (%+.1f%%)",
                    scenario.name, early, first, late, requests, (late / early - 1) * 100))
        } else {
            print("  soak, \(scenario.name): \(requests) requests (RSS is read from /proc, on Linux only)")
        }
    }

    /// The process's resident set size in MB, from /proc/self/status.
    private static func residentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    private static func baseURL(_ text: String) throws -> URL {
        // As for `request`: Foundation would percent-encode a CR, LF or NUL instead of failing.
        guard ControlCharacters.first(in: text) == nil else {
            throw CLIError.usage("bad URL '\(ControlCharacters.printable(text))': it contains a control character")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CLIError.usage("bad URL '\(text)': expected the base URL of a DemoAPI server, such as http://127.0.0.1:8080")
        }
        return url
    }
}
#endif
