import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives URLSession's callbacks for every task of one ``URLSessionTransport`` and turns them
/// into a response continuation and a body stream per task.
///
/// Session-level delegate methods are used (not per-task delegates) because they are the ones
/// FoundationNetworking on Linux implements.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct TaskState {
        let request: RequestSummary
        let isHead: Bool
        var responseContinuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?
        /// Held only until the response head arrives: once the body is handed out, the reader
        /// owns the stream, and dropping it must cancel the download.
        var bodyStream: AsyncThrowingStream<Data, any Error>?
        let bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation
        var expectedLength: Int64?
        var received: Int64 = 0
        var deadline: Task<Void, Never>?
        var timedOut = false
    }

    private let tasks = LockedState<[Int: TaskState]>([:])

    func register(_ task: URLSessionTask, state: TaskState) {
        tasks.withLock { $0[task.taskIdentifier] = state }
    }

    /// Cancels `task` with a timeout error unless it has completed within `timeout`.
    func startDeadline(for task: URLSessionTask, after timeout: Duration) {
        let deadline = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self else { return }
            let isRunning = self.tasks.withLock { tasks -> Bool in
                guard tasks[task.taskIdentifier] != nil else { return false }
                tasks[task.taskIdentifier]?.timedOut = true
                return true
            }
            if isRunning { task.cancel() }
        }
        tasks.withLock { $0[task.taskIdentifier]?.deadline = deadline }
    }

    /// Ends a task's call with `error`, whatever stage it is in; does nothing once it has ended.
    func fail(_ task: URLSessionTask, with error: NetworkError) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.deadline?.cancel()
        state.responseContinuation?.resume(throwing: error)
        state.bodyContinuation.finish(throwing: error)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let httpURLResponse = response as? HTTPURLResponse, let httpResponse = httpURLResponse.httpResponse else {
            fail(dataTask, with: .transport(TransportFailure(kind: .invalidResponse)))
            completionHandler(.cancel)
            return
        }
        let expectedLength = HTTPBody.declaredLength(of: httpResponse, isHead: false)
        let started: (CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>, HTTPBody)? = tasks.withLock { tasks in
            guard var state = tasks[dataTask.taskIdentifier], let continuation = state.responseContinuation,
                let stream = state.bodyStream
            else {
                return nil
            }
            state.responseContinuation = nil
            state.bodyStream = nil
            state.expectedLength = state.isHead ? 0 : expectedLength
            tasks[dataTask.taskIdentifier] = state
            let length: HTTPBody.Length = state.expectedLength.map { .known($0) } ?? .unknown
            return (continuation, HTTPBody(stream, length: length, iterationBehavior: .single))
        }
        completionHandler(.allow)
        if let (continuation, body) = started {
            continuation.resume(returning: (httpResponse, body))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let continuation = tasks.withLock { tasks -> AsyncThrowingStream<Data, any Error>.Continuation? in
            tasks[dataTask.taskIdentifier]?.received += Int64(data.count)
            return tasks[dataTask.taskIdentifier]?.bodyContinuation
        }
        continuation?.yield(data)
    }

    /// Redirects are the client's to follow, with one policy for every transport: hand the 3xx
    /// answer back as it is.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.deadline?.cancel()
        if let error {
            let networkError = Self.networkError(for: error, state: state)
            state.responseContinuation?.resume(throwing: networkError)
            state.bodyContinuation.finish(throwing: networkError)
        } else if let continuation = state.responseContinuation {
            continuation.resume(throwing: NetworkError.transport(TransportFailure(kind: .invalidResponse, request: state.request)))
            state.bodyContinuation.finish()
        } else {
            // A short body is caught by HTTPBody against the declared length.
            state.bodyContinuation.finish()
        }
    }

    private static func networkError(for error: any Error, state: TaskState) -> NetworkError {
        if state.timedOut { return .timeout(state.request) }
        let networkError = URLErrorMapping.networkError(for: error, request: state.request)
        if case .transport(let failure) = networkError, failure.kind == .other,
            let expected = state.expectedLength, state.received < expected
        {
            // libcurl (FoundationNetworking) reports a short body as an unknown error; the byte
            // count says what it really is.
            return .transport(
                TransportFailure(kind: .truncatedBody, code: failure.code, underlying: error, request: state.request))
        }
        return networkError
    }
}
