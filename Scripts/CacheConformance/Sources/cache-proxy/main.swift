// cache-proxy: a reverse proxy whose only cache is NetworkingKit's HTTPCache.
//
//     cache-proxy --transport urlsession|ahc --port P --origin http://127.0.0.1:8000 [--verbose]
//
// Every request that arrives is sent on through one LiveAPIClient (HTTPCache over
// MemoryCacheStorage, no retry, redirects not followed) and its answer handed back as it is:
// status, headers and body. It prints `listening on http://127.0.0.1:PORT` once it is ready
// (`--port 0` picks a free port). Made to run http-tests/cache-tests against the cache; see
// README.md beside Package.swift.

import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import NetworkingKit
import NetworkingKitAsyncHTTPClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Command line

struct Options {
    var transport = "ahc"
    var port = 0
    var origin = "http://127.0.0.1:8000"
    var verbose = false
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let value = arguments.popFirst() else {
            FileHandle.standardError.write(Data("cache-proxy: \(flag) needs a value\n".utf8))
            exit(64)
        }
        return value
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--transport": options.transport = value(argument)
        case "--port": options.port = Int(value(argument)) ?? -1
        case "--origin": options.origin = value(argument)
        case "--verbose", "-v": options.verbose = true
        case "--help", "-h":
            print("usage: cache-proxy --transport urlsession|ahc --port P --origin http://127.0.0.1:8000 [--verbose]")
            exit(0)
        default:
            FileHandle.standardError.write(Data("cache-proxy: unknown argument \(argument)\n".utf8))
            exit(64)
        }
    }
    guard ["urlsession", "ahc"].contains(options.transport), (0...65535).contains(options.port),
        URL(string: options.origin)?.host != nil
    else {
        FileHandle.standardError.write(Data("cache-proxy: bad --transport, --port or --origin\n".utf8))
        exit(64)
    }
    while options.origin.hasSuffix("/") { options.origin.removeLast() }
    return options
}

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

// MARK: - Hop-by-hop fields

/// RFC 9110 §7.6.1: fields that belong to one connection, never forwarded; plus the framing
/// fields the proxy sets again itself (Host, Content-Length).
let hopByHop: Set<String> = [
    "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    "host", "content-length",
]

func forwardable(_ fields: HTTPFields) -> [HTTPField] {
    // Fields named in Connection are hop-by-hop too.
    let named = Set(
        fields[values: .connection].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    return fields.filter {
        let name = $0.name.canonicalName
        return !hopByHop.contains(name) && !named.contains(name)
    }
}

// MARK: - The client under test

let options = parseOptions()
let transport: any HTTPTransport =
    options.transport == "ahc" ? AsyncHTTPClientTransport() : URLSessionTransport()
let cache = HTTPCache(storage: MemoryCacheStorage())
let client = LiveAPIClient(
    configuration: .init(
        baseURL: URL(string: options.origin),
        transport: transport,
        middlewares: [cache],  // no RetryMiddleware, no deduplication: the cache alone
        timeout: .seconds(30),
        redirectPolicy: .disabled  // a 3xx is handed back, never followed
    ))

/// What the proxy hands back: an answer from the client, or a 502 when none came.
struct Answer {
    var status: HTTPResponse.Status
    var fields: [HTTPField]
    var body: Data
    /// Set when the client threw instead of answering (the body may then be a bounded copy).
    var note: String?
}

func forward(_ request: HummingbirdCore.Request) async -> Answer {
    var request = request
    let target = request.head.path ?? "/"
    // The request's own headers, as a dictionary (the only shape `Request` takes): repeated
    // fields are joined with ", " (RFC 9110 §5.3), `Cookie` with "; ".
    var headers: [String: String] = [:]
    for field in forwardable(request.headers) {
        let name = field.name.rawName
        if let existing = headers.first(where: { $0.key.lowercased() == name.lowercased() }) {
            let separator = name.lowercased() == "cookie" ? "; " : ", "
            headers[existing.key] = existing.value + separator + field.value
        } else {
            headers[name] = field.value
        }
    }
    var body: NetworkingKit.RequestBody?
    do {
        let bytes = try await request.collectBody(upTo: 16 * 1024 * 1024)
        if bytes.readableBytes > 0 || ![.get, .head].contains(request.method) {
            // No content type of its own: the request's Content-Type, if any, is in `headers`.
            body = .data(Data(bytes.readableBytesView), contentType: nil)
        }
    } catch {
        return Answer(status: .badRequest, fields: [], body: Data("request body: \(error)\n".utf8), note: "body")
    }
    // An absolute URL keeps the path and query exactly as they came; a path relative to the base
    // URL would be split and escaped again.
    // SwiftNIO's HTTP/1 parser reads `M-SEARCH` as its `.MSEARCH` case, which it spells "MSEARCH"
    // (swift-nio-extras' conversion to HTTPTypes keeps that spelling): put the hyphen back, or the
    // origin gets a method nobody sent.
    let method = request.method.rawValue == "MSEARCH" ? HTTPRequest.Method("M-SEARCH")! : request.method
    let call = NetworkingKit.Request<Data>(
        path: options.origin + (target.hasPrefix("/") ? target : "/" + target),
        method: method, headers: headers, body: body)
    do {
        let response = try await client.response(call)
        // The cache's status travels with the answer, not in its fields: shown here as the
        // X-Cache field caches use, replacing the origin's, for the suite's dumps.
        var fields = response.headerFields
        if let status = response.cacheStatus { fields[HTTPField.Name("X-Cache")!] = status.rawValue }
        return Answer(status: response.status, fields: Array(fields), body: response.data)
    } catch let error as NetworkError {
        // Any status but 2xx is thrown; the failure carries the head and a bounded copy of the body.
        if let failure = error.failure {
            if (100..<200).contains(failure.response.status.code) {
                // An interim response is never a final answer; writing it as one would leave the
                // client waiting for a final response that never comes.
                let prefix = String(decoding: failure.body.prefix(300), as: UTF8.self)
                    .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
                let message =
                    "the client returned an interim \(failure.response.status.code) as the final response "
                    + "(body \(failure.body.count) bytes\(failure.isBodyTruncated ? ", truncated" : ""), starting: \(prefix))"
                return Answer(
                    status: .badGateway, fields: [HTTPField(name: HTTPField.Name("X-Proxy-Error")!, value: message)],
                    body: Data("cache-proxy: \(message)\n".utf8), note: message)
            }
            let note = failure.isBodyTruncated ? "body truncated at \(HTTPFailure.maxBodyCopy) bytes" : nil
            return Answer(status: failure.response.status, fields: Array(failure.response.headerFields), body: failure.body, note: note)
        }
        var message = "\(error)"
        message.removeAll { $0 == "\r" || $0 == "\n" }
        return Answer(
            status: .badGateway, fields: [HTTPField(name: HTTPField.Name("X-Proxy-Error")!, value: message)],
            body: Data("cache-proxy: \(message)\n".utf8), note: "error")
    } catch {
        return Answer(status: .badGateway, fields: [], body: Data("cache-proxy: \(error)\n".utf8), note: "error")
    }
}

func respond(to request: HummingbirdCore.Request, writer: consuming ResponseWriter) async throws {
    let answer = await forward(request)
    var fields = HTTPFields(forwardable(HTTPFields(answer.fields)))
    let noBody =
        request.method == .head || answer.status.code == 204 || answer.status.code == 304
        || (100..<200).contains(answer.status.code)
    if noBody {
        // A HEAD answer and a 304 keep the length the origin declared, if any.
        if let length = HTTPFields(answer.fields)[.contentLength], answer.status.code != 204 {
            fields[.contentLength] = length
        }
    } else {
        fields[.contentLength] = String(answer.body.count)
    }
    if options.verbose {
        log(
            "\(request.method.rawValue) \(request.head.path ?? "/") -> \(answer.status.code) "
                + "x-cache=\(fields[HTTPField.Name("X-Cache")!] ?? "-")" + (answer.note.map { " (\($0))" } ?? ""))
    }
    let head = HTTPResponse(status: answer.status, headerFields: fields)
    if noBody {
        try await writer.writeResponse(head)
    } else {
        var buffer = ByteBuffer()
        buffer.writeBytes(answer.body)
        try await writer.write(response: head, body: ResponseBody(byteBuffer: buffer))
    }
}

// MARK: - The server

var serverLogger = Logger(label: "cache-proxy")
serverLogger.logLevel = options.verbose ? .info : .error
let server = try HTTPServerBuilder.http1().buildServer(
    configuration: ServerConfiguration(address: .hostname("127.0.0.1", port: options.port)),
    eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
    logger: serverLogger,
    responder: { request, writer, _ in
        try await respond(to: request, writer: writer)
    },
    onServerRunning: { channel in
        let port = channel.localAddress?.port ?? options.port
        print("listening on http://127.0.0.1:\(port) transport=\(options.transport) origin=\(options.origin)")
        fflush(nil)  // every output stream; `stdout` itself is not concurrency-safe to name
    }
)
// Hummingbird's Application is not used on purpose: it overwrites every response's `Date` with
// its own, and the cache's answers must reach the test client with the origin's.
try await server.run()
