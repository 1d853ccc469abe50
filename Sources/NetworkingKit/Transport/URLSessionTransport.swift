public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
import Foundation
#else
public import Foundation
#endif

/// A transport over URLSession: Foundation on Apple platforms, FoundationNetworking on Linux.
///
/// The response body is streamed as it arrives, so the client's size limit stops an oversized
/// download at the limit instead of after it has been buffered. Cancelling the calling task
/// cancels the URLSession task, during the request and while the body is read.
///
/// The transport owns its `URLSession`, created from the configuration you pass; the default
/// configuration (``defaultSessionConfiguration()``) has no `URLCache`, so nothing is cached
/// behind the client's back: caching is a middleware's job.
///
/// A streamed request body is read into memory before it is sent, because URLSession's streamed
/// uploads are not available on every platform; use the AsyncHTTPClient transport to stream
/// large uploads.
public final class URLSessionTransport: HTTPTransport {
    /// A transport with the default configuration, shared by clients that do not name one.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let delegate: URLSessionTransportDelegate

    /// An ephemeral configuration with no `URLCache` and no local cache use.
    public static func defaultSessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Creates a transport with its own session.
    /// - Parameter configuration: The session configuration; see ``defaultSessionConfiguration()``.
    public init(configuration: URLSessionConfiguration = defaultSessionConfiguration()) {
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
        if let timeout = context.options.timeout {
            let components = timeout.components
            urlRequest.timeoutInterval = Double(components.seconds) + Double(components.attoseconds) * 1e-18
        }
        if let body {
            urlRequest.httpBody = try await body.collect(upTo: Int.max)
        }

        let task = session.dataTask(with: urlRequest)
        let (stream, bodyContinuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        bodyContinuation.onTermination = { termination in
            // The reader stopped early (size limit reached, task cancelled): stop the download.
            if case .cancelled = termination { task.cancel() }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(
                    task,
                    state: URLSessionTransportDelegate.TaskState(
                        request: summary,
                        isHead: request.method == .head,
                        responseContinuation: continuation,
                        bodyStream: stream,
                        bodyContinuation: bodyContinuation
                    ))
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}
