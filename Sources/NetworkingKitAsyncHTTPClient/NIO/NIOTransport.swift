#if AsyncHTTPClientTransport || DemoAPI
import Foundation
public import HTTPTypes
@_spi(Transport) public import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOSSL

/// A transport of NetworkingKit's own on SwiftNIO: HTTP/1.1 over TCP and TLS, with certificate
/// pinning, per-request timing and connection events, and about half the work per request of
/// AsyncHTTPClient.
///
/// - Connections are pooled per origin (scheme, host and port), kept open between requests up
///   to ``Configuration/idleTimeout``, at most ``Configuration/maximumConnectionsPerOrigin`` at
///   once. A request that finds its pooled connection closed by the server before any answer is
///   sent once more on a new one when that is safe: always when nothing was written, otherwise
///   only for an idempotent method, and never with a one-shot body.
/// - Names resolve with the system's `getaddrinfo` (timed) and connect through SwiftNIO's
///   bootstrap, which races IPv6 and IPv4 addresses (Happy Eyeballs, RFC 8305).
/// - TLS is SwiftNIO SSL's: the server name sent (SNI) and checked, the platform's trusted roots
///   by default, private roots and client certificates through
///   ``Configuration/tlsConfiguration``, and ``/NetworkingKit/CertificatePins`` checked once the system's own
///   verification has passed, before any byte of the request is written.
/// - Request and response bodies stream with backpressure: an upload is read at the socket's pace,
///   and a reader that falls behind stops the connection reading. The call's timeout
///   (``/NetworkingKit/CallPlan/timeout``) bounds the whole exchange on one timer, or for a
///   streamed answer its head and then each wait for the next part.
/// - `gzip` and `deflate` are asked for and decoded as they are read, within the size limit.
/// - It speaks HTTP/1.1 only, offered as such in TLS's ALPN, and goes through no proxy: use
///   ``AsyncHTTPClientTransport`` for HTTP/2 or a proxy.
///
/// ```swift
/// let client = LiveAPIClient(baseURL: url, transport: NIOTransport.shared)
/// ```
public struct NIOTransport: TimedHTTPTransport {
    /// One transport for the whole process, with the default configuration, never shut down.
    public static let shared = NIOTransport()

    /// How many bytes of an answer are read ahead of its reader before the connection stops reading.
    static let readAhead = 256 * 1024

    /// How it connects.
    public let configuration: Configuration
    let pool: NIOConnectionPool

    /// A transport with its own connections.
    /// - Parameter configuration: Its event loops, TLS, pins, limits and observer.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        pool = NIOConnectionPool(configuration: configuration)
    }

    /// Closes the idle connections and refuses new requests; requests in progress end as they
    /// would have.
    public func shutdown() async {
        await pool.shutDown()
    }

    /// Sends the request and returns once the response head has arrived; the body streams after.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await timedSend(request, body: body, context: context)
        return (answer.response, answer.body)
    }

    /// Sends the request and returns once the response head has arrived, with its timing: the
    /// connection reused or not, the wait for it, DNS, connect, TLS, the request sent and the
    /// first byte.
    public func timedSend(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> HTTPAnswer {
        let summary = RequestSummary(request)
        let deadline = ContinuousClock.now + context.plan.timeout
        let (origin, head) = try requestHead(for: request, body: body, summary: summary, decodes: configuration.decodesContent)
        if !origin.isSecure {
            try configuration.pins.refuseUncheckable(request, checksCertificates: true, transport: "NIOTransport")
        }
        let requestBody: HTTP1RequestBody
        if let body {
            requestBody = body.bufferedData.map { .bytes(ByteBuffer(bytes: $0)) } ?? .stream(body)
        } else {
            requestBody = .none
        }
        var resent = false
        while true {
            var marks = HTTP1Exchange.TimingMarks(start: .now)
            let exchange: HTTP1Exchange
            let responseHead: HTTPResponseHead
            do {
                try Task.checkCancellation()
                let connection = try await pool.connection(to: origin, deadline: deadline, marks: &marks)
                exchange = HTTP1Exchange(
                    connection: connection, request: summary, requestID: context.requestID,
                    deadlineEndsWithHead: context.plan.streamsResponseBody, timing: marks)
                responseHead = try await exchange.head(head, body: requestBody, deadline: deadline)
            } catch  where !resent && marks.reused && Self.mayResend(after: error, method: request.method, body: body) {
                resent = true
                continue
            } catch {
                throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .head, request: summary).attaching(summary)
            }
            // A head refused there drops the body's reader, which ends the exchange and closes the connection.
            let idleLimit = context.plan.streamsResponseBody ? BodyReader.IdleLimit(context.plan.timeout, error: DeadlineExceeded()) : nil
            let (response, responseBody) = try TransportAnswer.make(
                request, summary: summary, status: responseHead.status, headers: responseHead.headers,
                chunks: BodyReader(exchange.pipe, producer: exchange, idleLimit: idleLimit).chunks, decodes: configuration.decodesContent)
            return Self.answer(response, body: responseBody, timedBy: exchange)
        }
    }

    /// The answer with the exchange's timing so far. Not async, and kept out of line: in an
    /// async function every temporary of a timing would be a task allocation of its own.
    @inline(never)
    private static func answer(_ response: HTTPResponse, body: HTTPBody?, timedBy exchange: HTTP1Exchange) -> HTTPAnswer {
        var answer = HTTPAnswer(response, body: body)
        answer.timing = exchange.timing.withLock { $0.requestTiming }
        return answer
    }

    /// Whether a request that failed this way on a reused connection may go again on a new one:
    /// nothing was written (the connection was found closed), or the method is idempotent and the
    /// connection closed before any answer; its body, if any, can be sent again.
    static func mayResend(after error: any Error, method: HTTPRequest.Method, body: HTTPBody?) -> Bool {
        guard body?.isReplayable ?? true else { return false }
        let idempotent = [.get, .head, .put, .delete, .options, .trace].contains(method)
        switch error {
        case ChannelError.ioOnClosedChannel: return true
        // Closed, reset, or a TLS peer gone without its close_notify: the request may have been read.
        case ChannelError.eof, NIOSSLError.uncleanShutdown: return idempotent
        case let error as IOError: return idempotent && [ECONNRESET, EPIPE].contains(error.errnoCode)
        default: return false
        }
    }

    /// The origin to connect to and the head to send, with the fields the transport adds:
    /// `Host`, `Accept-Encoding` (when it decodes) and the body's framing.
    func requestHead(
        for request: HTTPRequest, body: HTTPBody?, summary: RequestSummary, decodes: Bool
    ) throws -> (NIOTransport.Origin, HTTPRequestHead) {
        guard let scheme = request.scheme?.lowercased(), let authority = request.authority, let path = request.path else {
            throw NetworkError.invalidRequest(reason: "the request has no absolute URL")
        }
        let url = "\(scheme)://\(authority)\(path)"
        guard scheme == "http" || scheme == "https" else {
            throw NetworkError.invalidURL(url, reason: "the scheme '\(scheme)' is not http or https")
        }
        guard let (host, port) = URLAuthority.endpoint(inAuthority: authority[...], defaultPort: scheme == "https" ? 443 : 80) else {
            throw NetworkError.invalidURL(url, reason: URLAuthority.problem(inAuthority: authority[...]) ?? "no host")
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count + 3)
        if !request.headerFields.contains(where: { $0.name.canonicalName == "host" }) {
            headers.add(name: "Host", value: authority)
        }
        headers.add(request.headerFields)
        if decodes, !request.headerFields.contains(.acceptEncoding) {
            headers.add(name: "Accept-Encoding", value: ContentCoding.acceptEncoding)
        }
        if !request.headerFields.contains(.contentLength), !request.headerFields.contains(.transferEncoding) {
            switch body?.length {
            case .known(let count)?: headers.add(name: "Content-Length", value: String(count))
            case .unknown?: headers.add(name: "Transfer-Encoding", value: "chunked")
            case nil where [.post, .put, .patch].contains(request.method): headers.add(name: "Content-Length", value: "0")
            case nil: break
            }
        }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue), uri: path, headers: headers)
        return (Origin(isSecure: scheme == "https", host: host, port: port), head)
    }
}
#endif
