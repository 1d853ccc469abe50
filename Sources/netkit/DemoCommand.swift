#if DemoAPI
import ArgumentParser
import DemoAPI
import ExampleServices
import Foundation
import Logging
import NetworkingKit

/// `netkit demo`: starts DemoAPI in-process and walks through the library as an app would.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Tour NetworkingKit against an in-process DemoAPI server."
    )

    @Option(help: "The transport: ahc (AsyncHTTPClient), urlsession or nio (NIOTransport).")
    var transport: TransportChoice = .ahc

    @Flag(name: .shortAndLong, help: "Also show the library's log lines (LoggingMiddleware, secrets redacted).")
    var verbose = false

    /// Log lines on standard output, in order with the tour's own lines.
    private static func logger() -> Logger {
        var logger = Logger(label: "netkit", factory: { StreamLogHandler.standardOutput(label: $0) })
        logger.logLevel = .info
        return logger
    }

    func run() async throws {
        do {
            try await DemoServer.withServer { server in
                var tour = DemoTour(server: server, transport: transport, logger: verbose ? Self.logger() : nil)
                try await tour.run()
            }
        } catch let error as NetworkError {
            throw CLIError("the demo failed: \(CLIError(error).description)")
        }
    }
}
#endif
