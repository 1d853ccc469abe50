import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
import Foundation
#else
public import Foundation
#endif

/// A transport over URLSession: Foundation on Apple platforms, FoundationNetworking on Linux.
///
/// - The response body is streamed as it arrives, so the client's size limit stops an oversized
///   download at the limit instead of after it has been buffered; a reader that stops early
///   cancels the download. FoundationNetworking (Linux) has no backpressure (suspending a task
///   restarts it) and decodes gzip as fast as libcurl can, so the transport itself stops keeping
///   bytes once the size limit is passed and cancels the task: a gzip bomb costs the limit plus
///   what libcurl inflated before the cancellation took hold (see the README's figures).
/// - It asks for `gzip, deflate` when the request names no `Accept-Encoding`, as
///   `AsyncHTTPClientTransport` does (libcurl would also ask for `br` and `zstd`).
/// - Cancelling the calling task cancels the URLSession task, during the request and while the
///   body is read.
/// - The request's timeout (`RequestOptions.timeout`) bounds the whole exchange, body included,
///   not only the silence between two packets as `URLRequest.timeoutInterval` does.
/// - It never uses a `URLCache` (caching is a middleware's job, the same for every transport) and
///   it does not follow redirects: a 3xx answer is returned as it is, for the client to handle.
///
/// A streamed request body is read into memory before it is sent, because URLSession's streamed
/// uploads are not available on every platform.
public final class URLSessionTransport: HTTPTransport {
    /// A transport with the default configuration, shared by clients that do not name one.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let delegate: URLSessionTransportDelegate

    /// An ephemeral configuration with no `URLCache`, no local cache use and no cookie handling.
    ///
    /// Cookies are left to the app (a header, or a middleware) as with every other transport:
    /// cookies added below the middleware chain would be invisible to it, so a cache could not
    /// keep one user's answers from another's.
    public static func defaultSessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        return configuration
    }

    /// Creates a transport with its own session.
    /// - Parameter configuration: The session configuration; see ``defaultSessionConfiguration()``.
    ///   Its `urlCache` is ignored: the transport works on a copy without one.
    public init(configuration: URLSessionConfiguration = defaultSessionConfiguration()) {
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? Self.defaultSessionConfiguration()
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = URLSessionTransportDelegate()
        let queue = OperationQueue()
        queue.name = "NetworkingKit.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // The session keeps its delegate alive until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Sends the request and returns once the response head has arrived; the body streams after.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let summary = RequestSummary(request)
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw NetworkError.invalidRequest(reason: "the request has no absolute URL")
        }
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if request.headerFields[.acceptEncoding] == nil {
            // What every transport decodes; libcurl would also ask for br and zstd.
            urlRequest.setValue(ContentCoding.acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        }
        let timeout = context.options.timeout
        if let timeout {
            urlRequest.timeoutInterval = timeout.timeInterval
        }
        if let body {
            // A declared length bounds the read: a stream that yields more is an error.
            if case .known(let length) = body.length {
                urlRequest.httpBody = try await body.collect(upTo: Int(clamping: length))
            } else {
                urlRequest.httpBody = try await body.collect(upTo: Int.max)
            }
        }

        let task = session.dataTask(with: urlRequest)
        let (stream, bodyContinuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        bodyContinuation.onTermination = { termination in
            // The reader stopped early (size limit reached, task cancelled, body dropped).
            if case .cancelled = termination { task.cancel() }
        }
        let delegate = self.delegate
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(
                    task,
                    state: URLSessionTransportDelegate.TaskState(
                        request: summary,
                        isHead: request.method == .head,
                        limit: context.options.maxResponseBodySize,
                        responseContinuation: continuation,
                        bodyStream: stream,
                        bodyContinuation: bodyContinuation
                    ))
                // Cancelled before the task was registered: the handler below found nothing to fail.
                if Task.isCancelled {
                    delegate.fail(task, with: .cancelled)
                    task.cancel()
                    return
                }
                if let timeout {
                    delegate.startDeadline(for: task, after: timeout)
                }
                task.resume()
            }
        } onCancel: {
            delegate.fail(task, with: .cancelled)
            task.cancel()
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    var timeInterval: TimeInterval {
        let components = components
        return Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
