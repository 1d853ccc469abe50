import DemoAPI
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// What is particular to the NIO transport: TLS trust and pins, its pool, its timing and events.
/// The behaviour it shares with the other transports is in the conformance suites
/// (`TransportKind.nio`).
@Suite("NIO transport", .timeLimit(.minutes(3)))
struct NIOTransportTests {
    /// ByteFaultServer's certificates, trusted as a private root.
    private static func trustingConfiguration(pins: CertificatePins = .none) throws -> NIOTransport.Configuration {
        var tls = NIOTransport.Configuration.defaultTLS
        let roots = ByteFaultServer.certificatePEM + "\n" + ByteFaultServer.anotherHostCertificatePEM
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(roots.utf8)))
        return NIOTransport.Configuration(tlsConfiguration: tls, pins: pins)
    }

    private static var serverPin: String {
        get throws {
            try CertificatePins.pin(of: NIOSSLCertificate(bytes: Array(ByteFaultServer.certificatePEM.utf8), format: .pem))
        }
    }

    /// A transport of its own, shut down afterwards.
    private static func withTransport<T>(
        _ configuration: NIOTransport.Configuration, _ body: (NIOTransport) async throws -> T
    ) async throws -> T {
        let transport = NIOTransport(configuration: configuration)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    @Test("a private root is trusted when configured; the default refuses it, TLS below 1.2 and another host's certificate")
    func trust() async throws {
        try await Self.withTransport(try Self.trustingConfiguration()) { transport in
            try await ByteFaultServer.withServer(tls: true) { server in
                let answer = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/anything"))
                #expect(answer == "ok")
                let plain = LiveAPIClient(baseURL: server.baseURL, transport: NIOTransport.shared)
                let error = await networkError { _ = try await plain.send(Request<String>(path: "/anything")) }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            }
            try await ByteFaultServer.withServer(tls: true, legacyTLSOnly: true) { server in
                let error = await networkError {
                    _ = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/"))
                }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            }
            try await ByteFaultServer.withServer(tls: true, certificateForAnotherHost: true) { server in
                let error = await networkError {
                    _ = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/"))
                }
                #expect(error?.transportKind == .secureConnectionFailed, "got \(String(describing: error))")
            }
        }
    }

    @Test("a pinned key, or its backup, lets the request through; its timing shows the handshake")
    func pinMatches() async throws {
        let wrong = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        for pins in [[try Self.serverPin], [wrong, try Self.serverPin]] {
            let configuration = try Self.trustingConfiguration(pins: try CertificatePins(["127.0.0.1": pins]))
            try await Self.withTransport(configuration) { transport in
                try await ByteFaultServer.withServer(tls: true) { server in
                    let answer = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).response(Request<String>(path: "/"))
                    #expect(answer.value == "ok")
                    #expect(answer.timing?.reusedConnection == false)
                    let handshake = try #require(answer.timing?.tlsHandshake)
                    #expect(handshake > .zero && handshake <= answer.timing!.firstByte!)
                }
            }
        }
    }

    @Test("a pin of the whole certificate lets it through; pins past their expiry no longer apply")
    func certificatePinAndExpiry() async throws {
        let der = try NIOSSLCertificate(bytes: Array(ByteFaultServer.certificatePEM.utf8), format: .pem).toDERBytes()
        let wrong = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        let expired = try CertificatePins(["127.0.0.1": [wrong]], expiry: Date(timeIntervalSinceNow: -1))
        for pins in [try CertificatePins(["127.0.0.1": [CertificatePin.certificate(ofCertificate: der)]]), expired] {
            try await Self.withTransport(try Self.trustingConfiguration(pins: pins)) { transport in
                try await ByteFaultServer.withServer(tls: true) { server in
                    let answer = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<String>(path: "/"))
                    #expect(answer == "ok")
                }
            }
        }
    }

    @Test("a certificate without the pinned key fails as secureConnectionFailed before any byte of the request is sent")
    func pinMismatch() async throws {
        let wrong = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        let configuration = try Self.trustingConfiguration(pins: try CertificatePins(["127.0.0.1": [wrong]]))
        try await Self.withTransport(configuration) { transport in
            try await ByteFaultServer.withServer(tls: true) { server in
                let error = await networkError {
                    _ = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(
                        Request<String>(path: "/", method: .post, body: .json(["secret": "value"])))
                }
                guard case .transport(let failure)? = error, let mismatch = failure.underlying as? CertificatePinMismatch else {
                    Issue.record("expected a pin mismatch, got \(String(describing: error))")
                    return
                }
                #expect(failure.kind == .secureConnectionFailed)
                #expect(mismatch.host == "127.0.0.1")
                let serverPin = try Self.serverPin
                #expect(mismatch.presentedPin == serverPin)
                #expect(error?.localizedDescription == "A secure connection to the server could not be established.")
                #expect(server.receivedByteCount == 0)
            }
        }
    }

    /// Collects what a transport reports.
    final class Events: Sendable {
        private let events = LockedEvents()
        let stream: AsyncStream<NIOTransport.Event>
        private let continuation: AsyncStream<NIOTransport.Event>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream()
        }

        var observer: @Sendable (NIOTransport.Event) -> Void {
            { [events, continuation] event in
                events.append(event)
                continuation.yield(event)
            }
        }

        var all: [NIOTransport.Event] { events.all }
        var opened: Int { all.filter { if case .connectionOpened = $0 { true } else { false } }.count }
        var timings: [NIOTransport.RequestTiming] {
            all.compactMap { if case .requestFinished(let timing) = $0 { timing } else { nil } }
        }
    }

    final class LockedEvents: @unchecked Sendable {  // @unchecked: `events` is only touched under `lock`.
        private let lock = NSLock()
        private var events: [NIOTransport.Event] = []
        func append(_ event: NIOTransport.Event) { lock.withLock { events.append(event) } }
        var all: [NIOTransport.Event] { lock.withLock { events } }
    }

    @Test("one connection carries calls one after another; each call's timing says whether it was reused and where time went")
    func reuseAndTiming() async throws {
        let events = Events()
        try await Self.withTransport(NIOTransport.Configuration(observer: events.observer)) { transport in
            try await withDemoServer { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                for _ in 0..<3 { _ = try await client.send(Request<Echo>(path: "/echo")) }
            }
        }
        #expect(events.opened == 1)
        let timings = events.timings
        #expect(timings.count == 3)
        #expect(timings.map(\.reusedConnection) == [false, true, true])
        #expect(timings.filter(\.succeeded).count == 3)
        #expect(timings[0].connect != nil && timings[0].tlsHandshake == nil)
        #expect(timings[1].connect == nil && timings[1].dns == nil)
        // Resolving is part of connecting; the request goes out before its answer comes back.
        let dnsWithinConnect = timings[0].dns.flatMap { dns in timings[0].connect.map { dns <= $0 } } ?? false
        #expect(dnsWithinConnect)
        let sentBeforeAnswer = timings.allSatisfy { timing in
            timing.requestSent.flatMap { sent in timing.firstByte.map { sent <= $0 } } ?? false
        }
        #expect(sentBeforeAnswer)
        let firstBytesInOrder = timings.allSatisfy { timing in timing.firstByte.map { $0 > .zero && $0 <= timing.total } ?? false }
        #expect(firstBytesInOrder)
        #expect(Set(timings.map(\.requestID)).count == 3)
    }

    @Test("streamed uploads, answered as soon as their last byte is in, leave their connection for the next call")
    func streamedUploadKeepsConnection() async throws {
        let events = Events()
        try await Self.withTransport(NIOTransport.Configuration(observer: events.observer)) { transport in
            try await withDemoServer { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                for _ in 0..<3 {
                    let parts = [Data(repeating: 1, count: 70_000), Data(repeating: 2, count: 70_000), Data("end".utf8)]
                    let stream = AsyncStream<Data> { continuation in
                        for part in parts { continuation.yield(part) }
                        continuation.finish()
                    }
                    let body = HTTPBody(stream, length: .known(140_003), iterationBehavior: .single)
                    let receipt = try await client.send(
                        Request<UploadReceipt>(path: "/upload", method: .post, body: .stream(body, contentType: "application/octet-stream"))
                    )
                    #expect(receipt.size == 140_003)
                }
            }
        }
        #expect(events.opened == 1, "\(events.all)")
        #expect(events.timings.map(\.reusedConnection) == [false, true, true])
    }

    @Test("calls past an origin's limit wait for a connection rather than open one")
    func limitPerOrigin() async throws {
        let events = Events()
        try await Self.withTransport(NIOTransport.Configuration(maximumConnectionsPerOrigin: 2, observer: events.observer)) { transport in
            try await withDemoServer { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                try await withThrowingTaskGroup(of: Echo.self) { group in
                    for _ in 0..<16 { group.addTask { try await client.send(Request<Echo>(path: "/echo")) } }
                    for try await echo in group { #expect(echo.path == "/echo") }
                }
            }
        }
        #expect(events.opened <= 2)
        #expect(events.timings.count == 16)
    }

    @Test("an idle connection closes after the idle timeout, and the next call opens another")
    func idleTimeout() async throws {
        let events = Events()
        let configuration = NIOTransport.Configuration(idleTimeout: .milliseconds(20), observer: events.observer)
        try await Self.withTransport(configuration) { transport in
            try await withDemoServer { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                _ = try await client.send(Request<Echo>(path: "/echo"))
                for await event in events.stream {
                    if case .connectionClosed = event { break }
                }
                _ = try await client.send(Request<Echo>(path: "/echo"))
            }
        }
        #expect(events.opened == 2)
        #expect(events.timings.map(\.reusedConnection) == [false, false])
    }

    /// A name with an IPv6 and an IPv4 address, as `localhost` has on most machines.
    struct DualStackResolver: Resolver, Sendable {
        let loop: any EventLoop
        func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
            loop.makeCompletedFuture { [try SocketAddress(ipAddress: "127.0.0.1", port: port)] }
        }
        func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
            loop.makeCompletedFuture { [try SocketAddress(ipAddress: "::1", port: port)] }
        }
        func cancelQueries() {}
    }

    @Test("a name with an IPv6 address refused and an IPv4 one that answers: the refused attempt does not fail the call (Happy Eyeballs)")
    func happyEyeballs() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        var configuration = NIOTransport.Configuration(eventLoopGroup: loop)
        configuration.resolver = DualStackResolver(loop: loop)
        try await Self.withTransport(configuration) { transport in
            try await withDemoServer { server in
                let url = try #require(URL(string: "http://dual-stack.test:\(server.port)"))
                let echo = try await LiveAPIClient(baseURL: url, transport: transport).send(Request<Echo>(path: "/echo"))
                #expect(echo.path == "/echo")
            }
        }
    }

    @Test("calls cancelled while they wait, at every stage, give their connection back: the origin's one connection still serves")
    func cancelledCallsFreeTheirConnection() async throws {
        try await Self.withTransport(NIOTransport.Configuration(maximumConnectionsPerOrigin: 1)) { transport in
            try await withDemoServer { server in
                let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                for _ in 0..<5 {
                    let slow = Task { try await client.send(Request<Data>(path: "/faults/delay/60000")) }
                    let queued = Task { try await client.send(Request<Echo>(path: "/echo")) }
                    slow.cancel()
                    queued.cancel()
                    _ = await (slow.result, queued.result)
                }
                let echo = try await client.send(Request<Echo>(path: "/echo"))
                #expect(echo.path == "/echo")
            }
        }
    }

    @Test("a host name goes through the system's resolver, its time reported; a name that does not resolve fails as hostNotFound")
    func systemResolver() async throws {
        let events = Events()
        try await Self.withTransport(NIOTransport.Configuration(observer: events.observer)) { transport in
            try await withDemoServer { server in
                let port = server.baseURL.port ?? 0
                let client = LiveAPIClient(baseURL: try #require(URL(string: "http://localhost:\(port)")), transport: transport)
                let echo = try await client.send(Request<Echo>(path: "/echo"))
                #expect(echo.path == "/echo")
                // RFC 6761: `.invalid` never resolves.
                let unknown = LiveAPIClient(baseURL: try #require(URL(string: "http://no-such-host.invalid:\(port)")), transport: transport)
                let error = await networkError { _ = try await unknown.send(Request<Echo>(path: "/echo")) }
                guard case .transport(let failure)? = error, failure.kind == .hostNotFound else {
                    Issue.record("expected hostNotFound, got \(String(describing: error))")
                    return
                }
            }
        }
        let first = try #require(events.timings.first)
        #expect(first.dns != nil)
        #expect(first.succeeded)
    }

    @Test("calls on a loop executor run on its event loop and open their connection there; calls elsewhere reuse it")
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func loopExecutor() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = Array(group.makeIterator())
        let events = Events()
        let run: Result<Void, any Error>
        do {
            try await Self.withTransport(NIOTransport.Configuration(eventLoopGroup: group, observer: events.observer)) { transport in
                try await withDemoServer { server in
                    let client = LiveAPIClient(baseURL: server.baseURL, transport: transport)
                    // The second loop: a connection opened on the group's next loop would be on the first.
                    let executor = NIOTransport.LoopExecutor(loops[1])
                    let onItsLoop = try await withTaskExecutorPreference(executor) {
                        _ = try await client.send(Request<Echo>(path: "/echo"))
                        return loops[1].inEventLoop
                    }
                    #expect(onItsLoop)
                    let origin = NIOTransport.Origin(isSecure: false, host: "127.0.0.1", port: server.baseURL.port ?? 0)
                    guard case .use(let connection)? = transport.pool.leaseForTest(origin) else {
                        Issue.record("expected the call's connection to be idle in the pool")
                        return
                    }
                    #expect(connection.channel.eventLoop === loops[1])
                    _ = transport.pool.release(connection)
                    // Off the loops, a call takes the idle connection wherever it is.
                    _ = try await client.send(Request<Echo>(path: "/echo"))
                }
            }
            run = .success(())
        } catch {
            run = .failure(error)
        }
        try await group.shutdownGracefully()
        try run.get()
        #expect(events.opened == 1)
        #expect(events.timings.map(\.reusedConnection) == [false, true])
    }

    @Test("a transport that was shut down refuses calls with a clear error")
    func shutDown() async throws {
        let transport = NIOTransport()
        await transport.shutdown()
        try await withDemoServer { server in
            let error = await networkError {
                _ = try await LiveAPIClient(baseURL: server.baseURL, transport: transport).send(Request<Echo>(path: "/echo"))
            }
            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("shut down"))
        }
    }
}
