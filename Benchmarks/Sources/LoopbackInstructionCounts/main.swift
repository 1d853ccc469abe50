// Sends a number of requests to a loopback server in one way (a row), for callgrind to count the
// instructions the process spends on them: `LoopbackInstructionCounts URL ROW REQUESTS IN_FLIGHT`,
// or `--list` for the rows. Benchmarks/loopback-instruction-counts.sh runs each row twice against
// nginx and takes the difference, as netkit bench's scenarios measure time: the HTTP library used
// directly (the baseline), NetworkingKit's bare transport, the client, and the full stack.
//
// The main thread blocks on a semaphore instead of being an async main: an async main parks the main
// thread in dispatch_main, which valgrind 3.19 does not survive.
import AsyncHTTPClient
import BenchmarkScenarios
import Dispatch
import Foundation
import HTTPTypes
import Logging
import NetworkingKit
import NetworkingKitAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The small todo nginx answers `GET /todos/{id}` with (Benchmarks/nginx.conf).
struct Todo: Decodable, Sendable {
    let userId: Int
    let id: Int
    let title: String
    let completed: Bool
}

/// A request's worth of work, given the request's index.
typealias Fetch = @Sendable (_ index: Int) async throws -> Void

/// The rows, by name: each makes its fetch once, before anything is counted.
let rows: KeyValuePairs<String, @Sendable (_ base: String) -> Fetch> = [
    // On the transport's own `HTTPClient` (pool, event loops, configuration), so that the ratios
    // are NetworkingKit's cost alone.
    "raw_asynchttpclient": { base in raw(AsyncHTTPClientTransport.sharedClient, base: base) },
    // On `HTTPClient.shared`, as an app that uses AsyncHTTPClient directly has it: its
    // configuration decompresses, follows redirects and traces with the bootstrapped tracer (the
    // no-op one here, whose spans still cost their attributes).
    "raw_asynchttpclient_shared": { base in raw(HTTPClient.shared, base: base) },
    "bare_asynchttpclient": { base in bare(AsyncHTTPClientTransport(), base: base, timeout: .seconds(30)) },
    "client_asynchttpclient": { base in client(AsyncHTTPClientTransport(), base: base, middlewares: []) },
    "full_stack_asynchttpclient": { base in
        client(AsyncHTTPClientTransport(), base: base, middlewares: Rows.fullStack(logger: Rows.infoLogger), logger: Rows.infoLogger)
    },
    // NetworkingKit's own transport on SwiftNIO, against the same raw AsyncHTTPClient baseline.
    "bare_nio": { base in bare(NIOTransport.shared, base: base, timeout: .seconds(30)) },
    "client_nio": { base in client(NIOTransport.shared, base: base, middlewares: []) },
    "full_stack_nio": { base in
        client(NIOTransport.shared, base: base, middlewares: Rows.fullStack(logger: Rows.infoLogger), logger: Rows.infoLogger)
    },
    // The medium answer (GET /todos: 200 todos, 13.7 KB), where decoding is most of the cost:
    // AsyncHTTPClient used directly with JSONDecoder (the baseline of these rows) and with
    // FastJSONDecoder, and the full stack with each.
    "raw_asynchttpclient_medium": { base in rawList(AsyncHTTPClientTransport.sharedClient, base: base, decoder: JSONDecoder()) },
    "raw_asynchttpclient_medium_fast": { base in
        rawList(AsyncHTTPClientTransport.sharedClient, base: base, decoder: FastJSONDecoder())
    },
    "full_stack_asynchttpclient_medium": { base in
        client(
            AsyncHTTPClientTransport(), base: base, middlewares: Rows.fullStack(logger: Rows.infoLogger), logger: Rows.infoLogger,
            list: true)
    },
    "full_stack_asynchttpclient_medium_fast": { base in
        client(
            AsyncHTTPClientTransport(), base: base, middlewares: Rows.fullStack(logger: Rows.infoLogger), logger: Rows.infoLogger,
            list: true, decoder: FastJSONDecoder())
    },
    "full_stack_nio_medium_fast": { base in
        client(
            NIOTransport.shared, base: base, middlewares: Rows.fullStack(logger: Rows.infoLogger), logger: Rows.infoLogger,
            list: true, decoder: FastJSONDecoder())
    },
    "raw_urlsession": { base in
        let decoder = JSONDecoder()
        let session = URLSession(configuration: .ephemeral)
        return { index in
            var request = URLRequest(url: URL(string: "\(base)/todos/\(index)")!)
            request.timeoutInterval = 30
            let (data, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else { throw LoopbackFailure(status: status) }
            _ = try decoder.decode(Todo.self, from: data)
        }
    },
    "bare_urlsession": { base in bare(URLSessionTransport(), base: base, timeout: .seconds(30)) },
    "client_urlsession": { base in client(URLSessionTransport(), base: base, middlewares: []) },
    "full_stack_urlsession": { base in
        client(URLSessionTransport(), base: base, middlewares: Rows.fullStack(logger: Rows.infoLogger), logger: Rows.infoLogger)
    },
]

/// AsyncHTTPClient used directly: execute, collect, decode.
func raw(_ client: HTTPClient, base: String) -> Fetch {
    let decoder = JSONDecoder()
    return { index in
        let request = HTTPClientRequest(url: "\(base)/todos/\(index)")
        let response = try await client.execute(request, timeout: .seconds(30))
        guard response.status == .ok else { throw LoopbackFailure(status: Int(response.status.code)) }
        let buffer = try await response.body.collect(upTo: 1 << 20)
        _ = try decoder.decode(Todo.self, from: Data(buffer.readableBytesView))
    }
}

/// AsyncHTTPClient used directly for the list: execute, collect, decode with `decoder`.
func rawList(_ client: HTTPClient, base: String, decoder: some ResponseDecoder) -> Fetch {
    { _ in
        let request = HTTPClientRequest(url: "\(base)/todos")
        let response = try await client.execute(request, timeout: .seconds(30))
        guard response.status == .ok else { throw LoopbackFailure(status: Int(response.status.code)) }
        let buffer = try await response.body.collect(upTo: 1 << 20)
        _ = try decoder.decode([Todo].self, from: Data(buffer.readableBytesView))
    }
}

/// NetworkingKit's transport alone: build, send, check, read, decode by hand.
func bare(_ transport: some HTTPTransport, base: String, timeout: Duration) -> Fetch {
    var options = RequestOptions()
    options.timeout = timeout
    let context = RequestContext(
        options: options, requestID: "loopback", logger: Logger(label: "loopback") { _ in SwiftLogNoOpLogHandler() })
    let decoder = JSONDecoder()
    return { index in
        let request = HTTPRequest(
            method: .get, scheme: "http", authority: base.dropFirst("http://".count).description, path: "/todos/\(index)")
        let (response, body) = try await transport.send(request, body: nil, context: context)
        guard response.status == .ok else { throw LoopbackFailure(status: response.status.code) }
        let data = try await body?.collect(upTo: 1 << 20) ?? Data()
        _ = try decoder.decode(Todo.self, from: data)
    }
}

/// The client over `transport` with `middlewares`: a todo per request, or the list.
func client(
    _ transport: some HTTPTransport, base: String, middlewares: [any Middleware], logger: Logger? = nil, list: Bool = false,
    decoder: any ResponseDecoder = JSONDecoder()
) -> Fetch {
    var configuration = LiveAPIClient.Configuration(
        baseURL: URL(string: base), transport: transport, middlewares: middlewares, decoder: decoder)
    if let logger { configuration.logger = logger }
    let client = LiveAPIClient(configuration: configuration)
    if list { return { _ in _ = try await client.send(Request<[Todo]>(path: "/todos")) } }
    return { index in _ = try await client.send(Request<Todo>(path: "/todos/\(index)")) }
}

/// A request that did not get its todo.
struct LoopbackFailure: Error {
    let status: Int
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--list" {
    print(rows.map(\.key).joined(separator: "\n"))
    exit(0)
}
guard arguments.count == 4, arguments[0].hasPrefix("http://"), let make = rows.first(where: { $0.key == arguments[1] })?.value,
    let requests = Int(arguments[2]), requests >= 0, let inFlight = Int(arguments[3]), (1...256).contains(inFlight)
else {
    FileHandle.standardError.write(
        Data("usage: LoopbackInstructionCounts http://HOST:PORT ROW REQUESTS IN_FLIGHT (rows: --list)\n".utf8))
    exit(2)
}

let finished = DispatchSemaphore(value: 0)
// Detached: the main actor's queue is the main thread's, which waits below.
Task.detached { [base = arguments[0], make, requests, inFlight, finished] in
    let fetch = make(base)
    do {
        // Each of the `inFlight` workers sends every `inFlight`-th request; the first round opens
        // the connections, and is counted in both runs alike.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<inFlight {
                group.addTask { try await fetch(worker) }
            }
            try await group.waitForAll()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<inFlight {
                group.addTask {
                    for index in stride(from: worker, to: requests, by: inFlight) { try await fetch(index) }
                }
            }
            try await group.waitForAll()
        }
    } catch {
        FileHandle.standardError.write(Data("failed: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
// The shared HTTPClient is never shut down; nothing is left to wait for.
exit(0)
