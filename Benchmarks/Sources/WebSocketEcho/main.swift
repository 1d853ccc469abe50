// Echo round trips over one WebSocket connection, NetworkingKit's client (NIOTransport) against
// swift-websocket's WSClient used directly, in the same run, against one in-process echo server;
// then the memory of one connection over many small messages, and of many connections opened and
// closed one after another. Run by websocket-echo.sh.
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import WSClient

#if canImport(Glibc)
import Glibc
#endif

/// Answers each data frame with the same bytes, a ping with a pong, a close with a close.
final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: frame.fin, opcode: frame.opcode, data: frame.unmaskedData)), promise: nil)
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)))
                .whenComplete { _ in
                    channel.close(promise: nil)
                }
        default:
            break
        }
    }
}

func startEchoServer() async throws -> any Channel {
    try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
            let upgrader = NIOWebSocketServerUpgrader(
                maxFrameSize: 1 << 20,
                shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(EchoHandler()) }
                })
            return channel.pipeline.configureHTTPServerPipeline(
                withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        }
        .bind(host: "127.0.0.1", port: 0)
        .get()
}

/// Round trips of one small text message with NetworkingKit, and the time they took.
func networkingKitRoundTrips(port: Int, count: Int) async throws -> Duration {
    let client = LiveAPIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: NIOTransport.shared)
    let connection = try await client.webSocket(Request<Void>(path: "/"))
    var messages = connection.messages.makeAsyncIterator()
    let start = ContinuousClock.now
    for _ in 0..<count {
        try await connection.send(.text("ping"))
        guard try await messages.next() != nil else { fatalError("the echo ended") }
    }
    let elapsed = start.duration(to: .now)
    await connection.close()
    return elapsed
}

/// The same with swift-websocket's client used directly.
func wsClientRoundTrips(port: Int, count: Int) async throws -> Duration {
    let elapsed = LockedBox<Duration>(.zero)
    try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", logger: Logger(label: "bench")) { inbound, outbound, _ in
        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        let start = ContinuousClock.now
        for _ in 0..<count {
            try await outbound.write(.text("ping"))
            guard try await messages.next() != nil else { fatalError("the echo ended") }
        }
        elapsed.set(start.duration(to: .now))
        try await outbound.close(.normalClosure, reason: nil)
    }
    return elapsed.value
}

final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

/// The process's resident set now, in KiB (`/proc/self/status` VmRSS).
func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

let arguments = CommandLine.arguments
let roundTrips = arguments.count > 1 ? Int(arguments[1]) ?? 20_000 : 20_000
let flatMessages = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let connections = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
let server = try await startEchoServer()
let port = server.localAddress!.port!

// Warm both up, then alternate: three runs each, the best of each kept.
_ = try await networkingKitRoundTrips(port: port, count: 1_000)
_ = try await wsClientRoundTrips(port: port, count: 1_000)
var ours: [Duration] = []
var theirs: [Duration] = []
for _ in 0..<3 {
    ours.append(try await networkingKitRoundTrips(port: port, count: roundTrips))
    theirs.append(try await wsClientRoundTrips(port: port, count: roundTrips))
}
func microseconds(_ duration: Duration, _ count: Int) -> Double {
    Double(duration.components.seconds) * 1e6 / Double(count) + Double(duration.components.attoseconds) / 1e12 / Double(count)
}
let bestOurs = ours.min()!
let bestTheirs = theirs.min()!
print("| echo round trips, one connection (\(roundTrips) per run, best of 3) | µs per round trip |")
print("|---|---|")
print(String(format: "| swift-websocket WSClient, directly | %.1f |", microseconds(bestTheirs, roundTrips)))
print(String(format: "| NetworkingKit, NIOTransport | %.1f |", microseconds(bestOurs, roundTrips)))
print(
    String(
        format: "| ratio (NetworkingKit / WSClient) | %.2f |",
        Double(bestOurs.components.attoseconds / 1_000_000_000 + bestOurs.components.seconds * 1_000_000_000)
            / Double(bestTheirs.components.attoseconds / 1_000_000_000 + bestTheirs.components.seconds * 1_000_000_000)))

// Memory over many small messages on one connection.
func residentCheckpoints(port: Int, count: Int) async throws -> [(Int, Int)] {
    let client = LiveAPIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: NIOTransport.shared)
    let connection = try await client.webSocket(Request<Void>(path: "/"))
    var messages = connection.messages.makeAsyncIterator()
    var checkpoints: [(Int, Int)] = []
    for index in 1...count {
        try await connection.send(.text("message \(index)"))
        guard try await messages.next() != nil else { fatalError("the echo ended") }
        if index == count / 10 || index == count / 2 || index == count {
            checkpoints.append((index, residentKiB()))
        }
    }
    await connection.close()
    return checkpoints
}

print("")
print("| small messages echoed on one connection | resident memory (KiB) |")
print("|---|---|")
for (count, kib) in try await residentCheckpoints(port: port, count: flatMessages) { print("| \(count) | \(kib) |") }

/// The process's open file descriptors (`/proc/self/fd`).
func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

// Memory and descriptors over connections opened, used once and closed, one after another.
func connectionCheckpoints(port: Int, count: Int) async throws -> [(Int, Int, Int)] {
    let client = LiveAPIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: NIOTransport.shared)
    var checkpoints: [(Int, Int, Int)] = [(0, residentKiB(), openDescriptors())]
    for index in 1...count {
        let connection = try await client.webSocket(Request<Void>(path: "/"))
        var messages = connection.messages.makeAsyncIterator()
        try await connection.send(.text("hello \(index)"))
        guard try await messages.next() != nil else { fatalError("the echo ended") }
        await connection.close()
        if index == count / 10 || index == count / 2 || index == count {
            checkpoints.append((index, residentKiB(), openDescriptors()))
        }
    }
    return checkpoints
}

print("")
print("| connections opened, echoed once and closed | resident memory (KiB) | open descriptors |")
print("|---|---|---|")
for (count, kib, descriptors) in try await connectionCheckpoints(port: port, count: connections) {
    print("| \(count) | \(kib) | \(descriptors) |")
}
try await server.close().get()
