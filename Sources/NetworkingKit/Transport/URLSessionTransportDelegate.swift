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
        /// The response size limit (the client's): past it the download is cancelled and nothing
        /// more is kept, since FoundationNetworking delivers without backpressure.
        let limit: Int?
        /// A streamed answer: the deadline ends when the head arrives.
        let headOnlyDeadline: Bool
        /// Told how many request body bytes each `didSendBodyData` sent.
        let sendObserver: (@Sendable (Int64) -> Void)?
        /// A temporary copy of the request body, removed once URLSession has it open (its first
        /// bytes sent) or when the task ends.
        let spooledFile: SpooledUpload?
        var spooledFileRemoved = false
        var responseContinuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?
        /// Held only until the response head arrives: once the body is handed out, the reader
        /// owns it, and dropping it must cancel the download.
        var bodyChunks: BodyChunks?
        /// Where the delegate puts the answer's bytes, for the reader to take.
        let body: BodyPipe
        var expectedLength: Int64?
        var received: Int64 = 0
        var deadline: DeadlineWatch.Ticket?
        var timedOut = false

        /// Releases what the task held once it has ended.
        func end() {
            if let deadline { DeadlineWatch.shared.disarm(deadline) }
            if !spooledFileRemoved { spooledFile?.remove() }
        }
    }

    private let tasks = LockedState<[Int: TaskState]>([:])
    /// Uploads to cancel once the last byte of their file has gone (see ``cancel(_:)``).
    private let cancelWhenSent = LockedState<Set<Int>>([])
    /// The app's answer to authentication challenges; `nil` for URLSession's default handling.
    let challengeHandler: URLSessionTransport.ChallengeHandler?
    /// Keys pinned per host, checked in server-trust challenges.
    let pins: CertificatePins

    init(pins: CertificatePins = .none, challengeHandler: URLSessionTransport.ChallengeHandler? = nil) {
        self.pins = pins
        self.challengeHandler = challengeHandler
    }

    /// Server trust, a client certificate, HTTP authentication: the pins are checked first,
    /// then the app's handler decides, or URLSession does as it would without a delegate.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // FoundationNetworking challenges a `401` only once its head and body have been handed
        // over, and then retries with a credential, cancels the task, or (default handling with
        // none stored) holds it until its timeout. Unless the app's handler gives a credential,
        // the `401` is the answer, for the middlewares (a token refresh) to act on: the task ends
        // here, as if complete, and its cancellation finds nothing left to fail.
        let (disposition, credential) = challengeHandler?(challenge) ?? (.performDefaultHandling, nil)
        guard disposition == .useCredential, let credential else {
            urlSession(session, task: task, didCompleteWithError: nil)
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        completionHandler(.useCredential, credential)
        #else
        Self.answer(challenge, pins: pins, challengeHandler: challengeHandler, completionHandler: completionHandler) {
            fail(task, with: .transport(TransportFailure(kind: .secureConnectionFailed, underlying: $0)))
        }
        #endif
    }

    /// Answers a challenge: the pins first (`mismatched` is told of a certificate without a
    /// pinned key), then the app's handler, or URLSession's default handling.
    static func answer(
        _ challenge: URLAuthenticationChallenge, pins: CertificatePins, challengeHandler: URLSessionTransport.ChallengeHandler?,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void,
        mismatched: (CertificatePinMismatch) -> Void
    ) {
        if let mismatch = ServerTrustPins.mismatch(in: challenge, pins: pins, asksApp: challengeHandler != nil) {
            mismatched(mismatch)
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        guard let challengeHandler else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        let (disposition, credential) = challengeHandler(challenge)
        completionHandler(disposition, credential)
    }

    func register(_ task: URLSessionTask, state: TaskState) {
        tasks.withLock { $0[task.taskIdentifier] = state }
    }

    /// Cancels `task` with a timeout error unless it has completed within `timeout`.
    func startDeadline(for task: URLSessionTask, after timeout: Duration) {
        let deadline = DeadlineWatch.shared.arm(at: .now + timeout) { [weak self] in
            guard let self else { return }
            let isRunning = self.tasks.withLock { tasks -> Bool in
                guard let state = tasks[task.taskIdentifier] else { return false }
                // A streamed answer's deadline is over once its head has arrived.
                if state.headOnlyDeadline, state.responseContinuation == nil { return false }
                tasks[task.taskIdentifier]?.timedOut = true
                return true
            }
            if isRunning { self.cancel(task) }
        }
        let stored = tasks.withLock { tasks -> Bool in
            guard tasks[task.taskIdentifier] != nil else { return false }
            tasks[task.taskIdentifier]?.deadline = deadline
            return true
        }
        // The call ended (cancelled) before its deadline could be stored: nothing will disarm it.
        if !stored { DeadlineWatch.shared.disarm(deadline) }
    }

    /// Cancels `task`, now, or for an upload still sending its file on Linux, once the file has
    /// gone.
    ///
    /// FoundationNetworking reads an uploaded file ahead, and pauses the transfer while a read is
    /// pending; a read that completes after the task was cancelled unpauses a transfer libcurl no
    /// longer knows, which fails, and FoundationNetworking stops the process on that failure
    /// (a forced `try` in `EasyHandle.swift`; about one cancelled upload in four here). The call itself
    /// ends at once (``fail(_:with:)``); only the transfer finishes sending first. An upload that
    /// a server stops reading ends with URLSession's own timeout.
    func cancel(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
        if task is URLSessionUploadTask, task.countOfBytesExpectedToSend > 0 {
            _ = cancelWhenSent.withLock { $0.insert(task.taskIdentifier) }
            // The last bytes may have gone meanwhile, before the set held the task.
            guard task.countOfBytesSent >= task.countOfBytesExpectedToSend else { return }
            guard cancelWhenSent.withLock({ $0.remove(task.taskIdentifier) != nil }) else { return }
        }
        #endif
        task.cancel()
    }

    /// Ends a task's call with `error`, whatever stage it is in; does nothing once it has ended.
    func fail(_ task: URLSessionTask, with error: NetworkError) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.end()
        state.responseContinuation?.resume(throwing: error)
        state.body.finish(.failure(error))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let httpURLResponse = response as? HTTPURLResponse,
            let httpResponse = httpURLResponse.httpResponse?.withStandardReasonPhrase.withSetCookieUnfolded
        else {
            fail(dataTask, with: .transport(TransportFailure(kind: .invalidResponse)))
            completionHandler(.cancel)
            cancel(dataTask)
            return
        }
        // FoundationNetworking hands an interim answer (102 Processing, 103 Early Hints) over as
        // if it were the response: the call waits for the final one, as AsyncHTTPClient does.
        if httpResponse.status.kind == .informational, httpResponse.status.code != 101 {
            completionHandler(.allow)
            return
        }
        let expectedLength: Int64?
        do {
            expectedLength = try HTTPBody.declaredLength(of: httpResponse, isHead: false)
        } catch {
            // Two different lengths (merged into "5, 6") or one that is not a number: the body's
            // end is unknowable, so the answer is refused, as AsyncHTTPClient refuses it.
            fail(dataTask, with: error as? NetworkError ?? .transport(TransportFailure(kind: .invalidResponse)))
            completionHandler(.cancel)
            cancel(dataTask)
            return
        }
        let started: (CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>, HTTPBody)? = tasks.withLock { tasks in
            guard var state = tasks[dataTask.taskIdentifier], let continuation = state.responseContinuation,
                let chunks = state.bodyChunks
            else {
                return nil
            }
            state.responseContinuation = nil
            state.bodyChunks = nil
            state.expectedLength = state.isHead ? 0 : expectedLength
            if state.headOnlyDeadline, let deadline = state.deadline {
                DeadlineWatch.shared.disarm(deadline)
                state.deadline = nil
            }
            tasks[dataTask.taskIdentifier] = state
            let length: HTTPBody.Length = state.expectedLength.map { .known($0) } ?? .unknown
            return (continuation, HTTPBody(chunks, length: length, iterationBehavior: .single))
        }
        completionHandler(.allow)
        if let (continuation, body) = started {
            continuation.resume(returning: (httpResponse, body))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        enum Delivery {
            case append(BodyPipe)
            case overLimit(Int, RequestSummary)
            case drop
        }
        let delivery = tasks.withLock { tasks -> Delivery in
            guard var state = tasks[dataTask.taskIdentifier] else { return .drop }
            state.received += Int64(data.count)
            tasks[dataTask.taskIdentifier] = state
            if let limit = state.limit, state.received > Int64(limit) {
                return .overLimit(limit, state.request)
            }
            return .append(state.body)
        }
        switch delivery {
        case .append(let body):
            // Bytes that cannot be kept (the disk is full) end the body: the transfer stops.
            if body.append(data) == .failed { cancel(dataTask) }
        case .overLimit(let limit, let request):
            // FoundationNetworking has no backpressure (suspending restarts the transfer) and
            // libcurl inflates a gzip bomb as fast as it can: stop keeping bytes at the limit and
            // cancel, instead of buffering what the reader will refuse anyway.
            fail(dataTask, with: .responseTooLarge(limit: limit, request: request))
            cancel(dataTask)
        case .drop:
            // Delivered after the call ended (cancelled, failed, over the limit): nobody reads it.
            break
        }
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

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        if totalBytesExpectedToSend > 0, totalBytesSent >= totalBytesExpectedToSend,
            cancelWhenSent.withLock({ $0.remove(task.taskIdentifier) != nil })
        {
            task.cancel()
        }
        guard bytesSent > 0 else { return }
        let (observer, spooled) = tasks.withLock { tasks -> ((@Sendable (Int64) -> Void)?, SpooledUpload?) in
            guard let state = tasks[task.taskIdentifier] else { return (nil, nil) }
            guard let spooled = state.spooledFile, !state.spooledFileRemoved else { return (state.sendObserver, nil) }
            tasks[task.taskIdentifier]?.spooledFileRemoved = true
            return (state.sendObserver, spooled)
        }
        // Bytes were read from the copy: URLSession has it open, and its name can go.
        spooled?.remove()
        observer?(bytesSent)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        #if canImport(FoundationNetworking)
        // Only an upload can wait there (one that ended before its file had gone): no lock for the rest.
        if task is URLSessionUploadTask { _ = cancelWhenSent.withLock { $0.remove(task.taskIdentifier) } }
        #endif
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.end()
        if let error {
            let networkError = Self.networkError(for: error, state: state)
            state.responseContinuation?.resume(throwing: networkError)
            state.body.finish(.failure(networkError))
        } else if let continuation = state.responseContinuation {
            state.body.finish(.success(()))
            // FoundationNetworking completes a 3xx it cannot follow (no Location, or an empty one)
            // without handing its head to the delegate; the task still holds it. It drops that
            // answer's body, too: with the declared length, reading it fails as truncated, rather
            // than passing for an empty body (that a cache would store).
            guard let response = (task.response as? HTTPURLResponse)?.httpResponse?.withStandardReasonPhrase.withSetCookieUnfolded,
                let chunks = state.bodyChunks
            else {
                continuation.resume(throwing: NetworkError.transport(TransportFailure(kind: .invalidResponse, request: state.request)))
                return
            }
            let declared = (try? HTTPBody.declaredLength(of: response, isHead: state.isHead)) ?? nil
            let length: HTTPBody.Length = declared.map { .known($0) } ?? .unknown
            continuation.resume(returning: (response, state.isHead ? nil : HTTPBody(chunks, length: length, iterationBehavior: .single)))
        } else {
            // A short body is caught by HTTPBody against the declared length.
            state.body.finish(.success(()))
        }
    }

    private static func networkError(for error: any Error, state: TaskState) -> NetworkError {
        if state.timedOut { return .timeout(state.request) }
        let networkError = URLErrorMapping.networkError(for: error, request: state.request)
        guard case .transport(let failure) = networkError else { return networkError }
        let headArrived = state.responseContinuation == nil
        let kind: TransportFailure.Kind
        switch failure.kind {
        case .connectionLost where headArrived, .secureConnectionFailed where headArrived:
            // A reset once the body has started cuts the body short, as AsyncHTTPClient says; so
            // does a TLS connection closed without close_notify ("SSL_read: unexpected eof").
            kind = .truncatedBody
        case .other where headArrived:
            // libcurl (FoundationNetworking) reports a short body ("transfer closed with N bytes
            // remaining") and a body that does not decode as unknown errors.
            let short = state.expectedLength.map { state.received < $0 } ?? false
            kind = short || URLErrorMapping.isTransferClosed(failure) ? .truncatedBody : .invalidResponse
        case .other:
            // Before any head, libcurl's unknown errors are answers it could not parse ("Header
            // without colon", "Weird server reply", an invalid Content-Length); TLS failures were
            // recognised by the mapping already.
            kind = .invalidResponse
        default:
            return networkError
        }
        return .transport(TransportFailure(kind: kind, code: failure.code, underlying: error, request: state.request))
    }
}
