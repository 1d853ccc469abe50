#if DemoAPI
import ArgumentParser
import Foundation

/// `netkit`: the command-line face of NetworkingKit.
@main
@available(macOS 14, iOS 17, tvOS 17, *)
struct NetKit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netkit",
        abstract: "NetworkingKit's command-line tool: a guided demo, the DemoAPI server, and a curl-like client.",
        discussion:
            "Exit status: 0 on success; 3, 4 or 5 when `request` got a 3xx, 4xx or 5xx answer; 1 when no answer"
            + " came (or another failure at run time); 64 for a mistake in the command line (nothing was sent).",
        subcommands: [DemoCommand.self, ServeCommand.self, RequestCommand.self, WebSocketCommand.self, BenchCommand.self]
    )

    /// ArgumentParser's entry point, except that a ``CLIError`` is one line with its own exit
    /// status (ArgumentParser would exit 1 for any error that is not its own).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            Foundation.exit(error.exitStatus)
        } catch let error where exitCode(for: error) == .validationFailure {
            // A mistake in the command line: one line, as for netkit's own checks, not the
            // error, the usage and a pointer to --help on three or four.
            let message = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad command line"
            FileHandle.standardError.write(Data("Error: \(message) (see --help)\n".utf8))
            Foundation.exit(CLIError.usageStatus)
        } catch {
            exit(withError: error)
        }
    }
}
#endif
