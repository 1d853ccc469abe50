import ArgumentParser

/// `netkit`: the command-line face of NetworkingKit.
@main
@available(macOS 14, iOS 17, tvOS 17, *)
struct NetKit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "netkit",
        abstract: "NetworkingKit's command-line tool: a guided demo, the DemoAPI server, and a curl-like client.",
        subcommands: [DemoCommand.self, ServeCommand.self, RequestCommand.self, BenchCommand.self]
    )
}
