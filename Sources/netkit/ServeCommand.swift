#if DemoAPI
import ArgumentParser
import DemoAPI
import Dispatch
import Foundation
import Logging

/// `netkit serve`: runs DemoAPI in the foreground until interrupted.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the DemoAPI server in the foreground until Ctrl-C.",
        discussion:
            "Prints the routes it serves when it starts (each path, its methods, what it answers and its query parameters); GET / serves the same list."
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Flag(name: .shortAndLong, help: "Log every request to standard error.")
    var verbose = false

    /// Checked in `run()`, not in ArgumentParser's `validate()`, so that a mistake is one line
    /// with exit status 64 rather than a usage dump (see ``CLIError``).
    private func checkOptions() throws {
        guard (0...65535).contains(port) else {
            throw CLIError.usage("bad port \(port): expected 0 to 65535")
        }
    }

    func run() async throws {
        try checkOptions()
        var configuration = DemoServer.Configuration(host: host, port: port)
        if verbose {
            var logger = Logger(label: "DemoAPI", factory: { StreamLogHandler.standardError(label: $0) })
            logger.logLevel = .info
            configuration.logger = logger
        }
        let server: DemoServer
        do {
            server = try await DemoServer.start(configuration)
        } catch {
            throw CLIError("cannot listen on \(host):\(port): \(error)")
        }
        // Unbuffered: scripts read these lines through a pipe, where print's output would wait for exit.
        FileHandle.standardOutput.write(
            Data(
                ("DemoAPI listening on \(server.baseURL) (Ctrl-C to stop)\nTry: netkit request GET \(server.baseURL)/films\n\n"
                    + "Routes (also at GET \(server.baseURL)/):\n" + server.routeIndex.map { "  \($0)\n" }.joined()).utf8))

        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) {
            Task { await server.stop() }
        }
        defer { signals.cancel() }
        try await server.waitUntilStopped()
        print("DemoAPI stopped.")
    }
}

/// Runs a handler when the process receives one of `signals`, instead of the default (exit).
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
#endif
