#if AsyncHTTPClientTransport || DemoAPI
public import AsyncHTTPClient
import Foundation
import Logging
@_spi(Transport) public import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOSSL

/// A transport over AsyncHTTPClient: SwiftNIO's HTTP client, the fast choice on Linux and servers.
///
/// - Request bodies are streamed as they are produced and response bodies as they arrive, so the
///   client's size limit stops an oversized download at the limit.
/// - The call's timeout (``/NetworkingKit/CallPlan/timeout``) bounds the whole exchange, body
///   included, as it does for ``/NetworkingKit/URLSessionTransport``; for a streamed answer
///   (``/NetworkingKit/CallPlan/streamsResponseBody``), the wait for the head, and then each wait for the
///   next part of the body (a server that stalls midway fails with `timeout`; a reader slower
///   than the network is not counted against it).
/// - Cancelling the calling task cancels the request, during the exchange and while the body is read.
/// - Errors map to the same ``/NetworkingKit/NetworkError`` cases as URLSession's.
/// - It does not follow redirects: the client's ``/NetworkingKit/RedirectPolicy`` does, the same way for every
///   transport.
/// - It asks for `gzip, deflate` when the request names no `Accept-Encoding`, and decodes those
///   bodies itself as they are read, so the client's size limit applies to the decoded bytes and a
///   gzip bomb stops at the limit (AsyncHTTPClient's decompressor, bounded by a ratio, refuses
///   well-compressed answers and inflates a whole network read at once).
///
/// ```swift
/// let client = LiveAPIClient(baseURL: url, transport: AsyncHTTPClientTransport())
/// ```
///
/// By default it uses ``sharedClient``, one process-wide `HTTPClient` that is never shut down.
/// To use a client of your own, create it with ``recommendedConfiguration()`` (or at least with
/// `redirectConfiguration: .disallow`) and shut it down yourself when you are done with it; the
/// transport never shuts down a client it was given.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The `HTTPClient` that sends the requests.
    public let client: HTTPClient
    /// Whether `gzip` and `deflate` bodies are decoded by the transport (see the type's overview).
    public let decodesContent: Bool
    /// Pinned hosts, whose calls this transport refuses (it cannot check their certificates).
    public let pins: CertificatePins

    /// One `HTTPClient` for the whole process, on AsyncHTTPClient's default event loop group.
    ///
    /// `HTTPClient.shared` is not used because it follows redirects itself, by its own rules,
    /// before NetworkingKit's ``/NetworkingKit/RedirectPolicy`` could remove credentials or refuse a downgrade.
    public static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: recommendedConfiguration()
    )

    /// The configuration of ``sharedClient``: `HTTPClient.shared`'s, with redirects left to the
    /// library, no silent retry of failed connection attempts (retrying is the retry middleware's
    /// job, within its budget), decompression off (the transport decodes, within the size limit),
    /// TLS 1.2 at the least (SwiftNIO would also agree to 1.0 and 1.1, which RFC 8996 retires),
    /// and AsyncHTTPClient's own tracing off.
    ///
    /// A server that speaks only TLS 1.0 or 1.1 fails with `secureConnectionFailed`. To reach one
    /// anyway, lower the minimum on a configuration of your own and pass its client to
    /// ``init(client:decodesContent:pins:)``:
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
    /// configuration.tlsConfiguration?.minimumTLSVersion = .tlsv1
    /// ```
    ///
    /// Tracing is ``/NetworkingKit/TracingMiddleware``'s job: one client span per call, its context
    /// in the request's headers. An `HTTPClient` takes the tracer bootstrapped when its
    /// configuration is made, and would then trace each request again: a second `traceparent`, its
    /// own span's, on every request with a body, and a span with no parent for every other.
    public static func recommendedConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        configuration.tracing.tracer = nil
        var tls = configuration.tlsConfiguration ?? .makeClientConfiguration()
        if tls.minimumTLSVersion == .tlsv1 || tls.minimumTLSVersion == .tlsv11 { tls.minimumTLSVersion = .tlsv12 }
        configuration.tlsConfiguration = tls
        return configuration
    }

    /// How many bytes of an answer are read ahead of its reader before AsyncHTTPClient, and so
    /// the server, is made to wait.
    static let readAhead = 256 * 1024

    /// What AsyncHTTPClient gets when the call's logger would drop its lines anyway: it logs only
    /// at debug and trace, yet sets metadata on the logger it is given for every request.
    private static let silentLogger = Logger(label: "NetworkingKit.AsyncHTTPClientTransport", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Creates a transport.
    /// - Parameters:
    ///   - client: The client to send with; ``sharedClient`` by default. It must not follow
    ///     redirects, should not trace (see ``recommendedConfiguration()``), and its owner shuts
    ///     it down.
    ///   - decodesContent: Whether the transport decodes `gzip` and `deflate` bodies. Leave it on
    ///     with a client whose `decompression` is `.disabled`; turn it off for a client that
    ///     decompresses itself, whose body would otherwise be decoded twice.
    ///   - pins: Hosts whose calls are refused before anything is sent: AsyncHTTPClient offers no
    ///     way to check a server's certificate, so a pinned host is never called unpinned (use
    ///     ``NIOTransport``, which checks them). Redirects are seen hop by hop only with a
    ///     `client` that does not follow them itself, as this transport requires.
    public init(
        client: HTTPClient = AsyncHTTPClientTransport.sharedClient, decodesContent: Bool = true, pins: CertificatePins = .none
    ) {
        self.client = client
        self.decodesContent = decodesContent
        self.pins = pins
    }

    /// Sends the request and returns once the response head has arrived; the body streams after.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if !pins.isEmpty {
            try pins.refuseUncheckable(request, checksCertificates: false, transport: "AsyncHTTPClient")
        }
        let summary = RequestSummary(request)
        let deadline: ContinuousClock.Instant? = ContinuousClock.now + context.plan.timeout
        guard let body else {
            return try await sendWithoutBody(request, summary: summary, deadline: deadline, context: context)
        }
        let clientResponse: HTTPClientResponse
        do {
            try Task.checkCancellation()
            clientResponse = try await Self.resendingOnClosedConnection(body: body) {
                try await client.execute(
                    HTTPClientRequest(request, body: body, headers: headers(for: request)),
                    deadline: deadline.map(NIODeadline.init) ?? .distantFuture,
                    logger: logger(for: context)
                )
            }
        } catch {
            throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .head, request: summary)
        }
        // A client that followed redirects itself has bypassed the RedirectPolicy (and may have
        // sent credentials to another origin): say so rather than hide it.
        guard clientResponse.history.count <= 1 else {
            throw NetworkError.invalidRequest(reason: ResponseReceiver.followedRedirect)
        }
        // A streamed answer's body may take as long as it lasts: the deadline ended with its head,
        // and the timeout bounds each wait for the next chunk instead.
        let streams = context.plan.streamsResponseBody
        let chunks = ResponseChunks(
            body: clientResponse.body, deadline: streams ? nil : deadline, idleTimeout: streams ? context.plan.timeout : nil,
            request: summary)
        return try TransportAnswer.make(
            request, summary: summary, status: clientResponse.status, headers: clientResponse.headers, chunks: chunks,
            decodes: decodesContent)
    }

    /// Sends a request without a body through a ``ResponseReceiver``, which bounds the whole
    /// exchange by the deadline without a task of its own.
    private func sendWithoutBody(
        _ request: HTTPRequest, summary: RequestSummary, deadline: ContinuousClock.Instant?, context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let receiver: ResponseReceiver
        let head: HTTPResponseHead
        do {
            try Task.checkCancellation()
            let clientRequest = try HTTPClient.Request(request, headers: headers(for: request))
            let logger = logger(for: context)
            (receiver, head) = try await Self.resendingOnClosedConnection(body: nil) {
                let receiver = ResponseReceiver(
                    idleTimeout: context.plan.streamsResponseBody ? context.plan.timeout : nil, request: summary)
                let head = try await receiver.head(deadline: deadline, headOnly: context.plan.streamsResponseBody) { receiver in
                    client.execute(request: clientRequest, delegate: receiver, eventLoop: .indifferent, logger: logger)
                }
                return (receiver, head)
            }
        } catch {
            throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .head, request: summary)
        }
        // A head refused here drops the body unread, and with it the request (its BodyReader).
        return try TransportAnswer.make(
            request, summary: summary, status: head.status, headers: head.headers, chunks: receiver.chunks,
            decodes: decodesContent)
    }

    /// The request's fields for AsyncHTTPClient, asking for the encodings the transport decodes.
    private func headers(for request: HTTPRequest) -> HTTPHeaders {
        var headers = HTTPHeaders(request.headerFields)
        if decodesContent, !request.headerFields.contains(.acceptEncoding) {
            headers.add(name: "Accept-Encoding", value: ContentCoding.acceptEncoding)
        }
        return headers
    }

    /// The logger AsyncHTTPClient gets for the call.
    private func logger(for context: RequestContext) -> Logger {
        context.logger.logLevel <= .debug ? context.logger : Self.silentLogger
    }

}

extension AsyncHTTPClientTransport {
    /// Runs `send`, and once more when it failed because the pooled connection it was given had
    /// already been closed by the server (`ChannelError.ioOnClosedChannel`): the request never
    /// left, so sending it on a fresh connection is safe whatever its method, as browsers and
    /// OkHttp do. A one-shot body that may have been read is not sent again.
    static func resendingOnClosedConnection<T>(
        body: HTTPBody?, _ send: () async throws -> T
    ) async throws -> T {
        do {
            return try await send()
        } catch ChannelError.ioOnClosedChannel where body?.isReplayable ?? true {
            return try await send()
        }
    }
}

extension NIODeadline {
    /// The NIO deadline at the same moment as a `ContinuousClock` instant.
    init(_ instant: ContinuousClock.Instant) {
        let remaining = ContinuousClock.now.duration(to: instant)
        let (seconds, attoseconds) = remaining.components
        guard seconds < Int64.max / 1_000_000_000 else {
            self = .distantFuture
            return
        }
        self = .now() + .nanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
#endif
