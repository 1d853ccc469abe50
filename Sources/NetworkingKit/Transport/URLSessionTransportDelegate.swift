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
        let bodyStream: AsyncThrowingStream<Data, any Error>
        let bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation
        var expectedLength: Int64?
        var received: Int64 = 0
    }

    private let tasks = LockedState<[Int: TaskState]>([:])

    func register(_ task: URLSessionTask, state: TaskState) {
        tasks.withLock { $0[task.taskIdentifier] = state }
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
        let expectedLength = Self.expectedBodyLength(of: httpResponse, urlResponse: httpURLResponse)
        let started: (CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>, HTTPBody)? = tasks.withLock { tasks in
            guard var state = tasks[dataTask.taskIdentifier], let continuation = state.responseContinuation else {
                return nil
            }
            state.responseContinuation = nil
            state.expectedLength = state.isHead ? 0 : expectedLength
            tasks[dataTask.taskIdentifier] = state
            let length: HTTPBody.Length = state.expectedLength.map { .known($0) } ?? .unknown
            return (continuation, HTTPBody(state.bodyStream, length: length, iterationBehavior: .single))
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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            var networkError = URLErrorMapping.networkError(for: error, request: state.request)
            if case .transport = networkError, let expected = state.expectedLength, state.received < expected {
                // libcurl (FoundationNetworking) reports a short body as an unknown error; the
                // byte count says what it really is.
                networkError = .transport(
                    TransportFailure(kind: .truncatedBody, code: (error as NSError).code, underlying: error, request: state.request))
            }
            state.responseContinuation?.resume(throwing: networkError)
            state.bodyContinuation.finish(throwing: networkError)
        } else if let continuation = state.responseContinuation {
            continuation.resume(throwing: NetworkError.transport(TransportFailure(kind: .invalidResponse, request: state.request)))
            state.bodyContinuation.finish()
        } else if let expected = state.expectedLength, state.received < expected {
            // The server closed the connection before sending the length it declared.
            state.bodyContinuation.finish(
                throwing: NetworkError.transport(
                    TransportFailure(
                        kind: .truncatedBody, underlying: TruncatedBody(expected: expected, received: state.received),
                        request: state.request)))
        } else {
            state.bodyContinuation.finish()
        }
    }

    private func fail(_ task: URLSessionTask, with error: NetworkError) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.responseContinuation?.resume(throwing: error)
        state.bodyContinuation.finish(throwing: error)
    }

    /// The body length the server declared, when the received bytes can be checked against it:
    /// not for responses that have no body, nor for encoded bodies, which URLSession decodes
    /// (so the bytes received are not the bytes declared).
    private static func expectedBodyLength(of response: HTTPResponse, urlResponse: HTTPURLResponse) -> Int64? {
        let code = response.status.code
        if (100..<200).contains(code) || code == 204 || code == 304 { return 0 }
        if let encoding = response.headerFields[.contentEncoding], encoding.lowercased() != "identity" { return nil }
        guard let declared = response.headerFields[.contentLength].flatMap({ Int64($0) }), declared >= 0 else {
            return nil
        }
        return declared
    }
}

/// The detail of a ``TransportFailure/Kind/truncatedBody`` failure.
struct TruncatedBody: Error, CustomStringConvertible {
    let expected: Int64
    let received: Int64

    var description: String {
        "the body ended after \(received) of \(expected) declared bytes"
    }
}
