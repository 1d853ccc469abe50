#if DemoAPI
import ArgumentParser
import Foundation
import Logging
import NetworkingKit
import NetworkingKitAsyncHTTPClient

/// `netkit ws URL`: a WebSocket client on NetworkingKit, as `websocat` or `wscat` are.
@available(macOS 14, iOS 17, tvOS 17, *)
struct WebSocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws",
        abstract: "Open a WebSocket connection: send each line of standard input, print each message that arrives.",
        discussion: [
            "Text messages are printed as they are, one per line; a binary message as '[binary, N bytes]'. At the end of"
                + " standard input the connection is closed (1000) once the server has answered; a connection the"
                + " server closes ends the command too, with its code and reason on standard error.",
            "The upgrade goes through NetworkingKit's middlewares: -H headers, -v shows the upgrade and the close"
                + " (secrets redacted). The exit status is 0 after a close handshake, 3, 4 or 5 for an upgrade refused"
                + " with such a status, and 1 when the connection failed or was lost.",
        ].joined(separator: "\n\n")
    )

    @Argument(help: "The ws://, wss://, http:// or https:// URL.")
    var url: String

    @Option(
        name: .customShort("H"), help: ArgumentHelp("A header of the upgrade request, 'Name: value' (repeatable).", valueName: "header"))
    var header: [String] = []

    @Option(name: .customLong("protocol"), help: ArgumentHelp("A subprotocol to offer (repeatable), preferred first.", valueName: "name"))
    var subprotocols: [String] = []

    @Option(help: "The largest message taken from the server, in bytes.")
    var maxMessage: Int = WebSocketOptions().maximumMessageSize

    @Option(help: "Seconds between pings that keep the connection alive (none by default).")
    var ping: Double?

    @Flag(help: "Offer no compression (permessage-deflate is offered by default, used if the server agrees).")
    var noCompression = false

    @Option(help: "The transport: nio (NIOTransport) or urlsession (on Apple platforms).")
    var transport: TransportChoice = .nio

    @Option(help: "Seconds to wait for the upgrade.")
    var timeout: Double = 30

    @Flag(name: .shortAndLong, help: "Show the upgrade request and response, and the close, as '>', '<' and '*' lines.")
    var verbose = false

    func validate() throws {
        guard timeout > 0, timeout <= 86400 else {
            throw CLIError.usage("bad timeout \(timeout): expected a number of seconds above 0 and at most 86400")
        }
        guard maxMessage > 0, maxMessage <= WebSocketOptions.largestMessageSize else {
            throw CLIError.usage("bad --max-message \(maxMessage): expected 1 to \(WebSocketOptions.largestMessageSize) bytes")
        }
        if let ping, !(ping > 0 && ping <= 86400) {
            throw CLIError.usage("bad --ping \(ping): expected a number of seconds above 0 and at most 86400")
        }
    }

    func run() async throws {
        guard ControlCharacters.first(in: url) == nil, let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["ws", "wss", "http", "https"].contains(scheme), parsed.host?.isEmpty == false
        else {
            throw CLIError.usage(
                "bad URL '\(ControlCharacters.printable(url))': expected an absolute ws://, wss://, http:// or https:// URL")
        }
        let fields = try RequestCommand.fields(from: header)
        var configuration = LiveAPIClient.Configuration(
            baseURL: nil, transport: transport.transport, timeout: .milliseconds(Int64(timeout * 1000)))
        if verbose {
            configuration.showVerboseLines()
            print("> GET \(ResponsePrinter.redaction.redact(parsed).absoluteString) (upgrade to WebSocket, via \(transport.displayName))")
            fields.forEach { print("> " + ResponsePrinter.redacted($0)) }
        }
        let client = LiveAPIClient(configuration: configuration)
        // The endpoint is the URL itself: its origin as the base, its path and query as typed.
        let endpoint = Request<Void>(path: url, headers: RequestCommand.combined(fields))
        let options = WebSocketOptions(
            maximumMessageSize: maxMessage, subprotocols: subprotocols, pingInterval: ping.map { .milliseconds(Int64($0 * 1000)) },
            compression: noCompression ? .disabled : .perMessageDeflate)
        let connection: WebSocketConnection
        do {
            connection = try await client.webSocket(endpoint, options: options)
        } catch let error as NetworkError {
            if let failure = error.failure {
                print(ResponsePrinter.statusLine(failure.response))
                ResponsePrinter.headerLines(failure.headerFields).forEach { print($0) }
                throw ExitCode(Int32(failure.status.code / 100))
            }
            throw CLIError(error)
        }
        if verbose {
            print("< " + ResponsePrinter.statusLine(connection.response))
            ResponsePrinter.headerLines(connection.response.headerFields).forEach { print("< " + $0) }
        }
        // Standard input is read on a thread of its own: a blocking read must not hold a thread
        // of the concurrency pool.
        let sender = Task {
            for await line in Self.standardInputLines() {
                try await connection.send(.text(line))
            }
            await connection.close()
        }
        do {
            for try await message in connection.messages {
                switch message {
                case .text(let text): print(text)
                case .binary(let data): print("[binary, \(data.count) bytes]")
                }
                fflush(nil)  // every stream: `stdout` itself is not concurrency-safe to name
            }
        } catch let error as NetworkError {
            sender.cancel()
            throw CLIError(error)
        }
        sender.cancel()
        let close = connection.closeFrame.map(\.description) ?? "no close frame"
        FileHandle.standardError.write(Data("* closed: \(close)\n".utf8))
    }

    /// The lines of standard input, read on a thread of their own, until its end.
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
            thread.start()
        }
    }
}
#endif
