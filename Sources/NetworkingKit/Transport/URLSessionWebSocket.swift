import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport: WebSocketTransport {
    /// Opens a WebSocket connection with `URLSessionWebSocketTask`, on a session of its own with
    /// the transport's configuration, pins and challenge handler.
    ///
    /// FoundationNetworking on Linux has the type, but the toolchains built without libcurl's
    /// WebSocket support (Swift 6.3's among them) fail every such task at once, before any byte is
    /// sent: that fails here as ``WebSocketFailure/Kind-swift.struct/unsupported``. Use
    /// `NIOTransport` there.
    public func openWebSocket(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPAnswer {
        var urlRequest = try checkedURLRequest(for: request)
        guard let scheme = request.scheme?.lowercased(), let url = urlRequest.url,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw NetworkError.invalidRequest(reason: "the request has no absolute URL")
        }
        components.scheme = scheme == "https" ? "wss" : "ws"
        urlRequest.url = components.url
        let options = context.plan.webSocket ?? WebSocketOptions()
        if !options.subprotocols.isEmpty {
            urlRequest.setValue(options.subprotocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol")
        }
        urlRequest.timeoutInterval = Self.idleTimeoutInterval(for: context.plan.timeout)
        let channel = URLSessionWebSocketChannel(
            pins: delegate.pins, challengeHandler: delegate.challengeHandler, request: RequestSummary(request),
            subprotocols: options.subprotocols)
        return try await channel.open(
            urlRequest, configuration: session.configuration, maximumMessageSize: options.maximumMessageSize,
            timeout: context.plan.timeout)
    }
}

/// One `URLSessionWebSocketTask`, on a session of its own whose delegate it is, as a
/// ``WebSocketChannel``.
final class URLSessionWebSocketChannel: NSObject, WebSocketChannel, URLSessionWebSocketDelegate, Sendable {
    private struct State {
        var session: URLSession?
        var task: URLSessionWebSocketTask?
        var opening: CheckedContinuation<HTTPAnswer, any Error>?
        /// The task opened: the handshake's deadline no longer applies.
        var opened = false
        var subprotocol: String?
        var closeReceived: WebSocketClose?
        /// A failure found by the delegate (a pin mismatch, the handshake's deadline).
        var failure: NetworkError?
        var ended = false
        var waitingForEnd: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())
    private let pins: CertificatePins
    private let challengeHandler: URLSessionTransport.ChallengeHandler?
    private let request: RequestSummary
    private let subprotocols: [String]

    init(
        pins: CertificatePins, challengeHandler: URLSessionTransport.ChallengeHandler?, request: RequestSummary,
        subprotocols: [String]
    ) {
        self.pins = pins
        self.challengeHandler = challengeHandler
        self.request = request
        self.subprotocols = subprotocols
    }

    /// Starts the task and returns once it opened (a `101` carrying this channel), or was refused.
    func open(
        _ urlRequest: URLRequest, configuration: URLSessionConfiguration, maximumMessageSize: Int, timeout: Duration
    ) async throws -> HTTPAnswer {
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let task = session.webSocketTask(with: urlRequest)
        task.maximumMessageSize = maximumMessageSize
        state.withLock {
            $0.session = session
            $0.task = task
        }
        let ticket = DeadlineWatch.shared.arm(at: .now + timeout) { [self] in
            let opened = state.withLock { state in
                if !state.opened { state.failure = state.failure ?? .timeout(request) }
                return state.opened
            }
            if !opened { task.cancel() }
        }
        defer { DeadlineWatch.shared.disarm(ticket) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { $0.opening = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    var subprotocol: String? { state.withLock { $0.subprotocol } }

    var closeReceived: WebSocketClose? { state.withLock { $0.closeReceived } }

    private var task: URLSessionWebSocketTask? { state.withLock { $0.task } }

    func send(_ message: WebSocketMessage) async throws {
        guard let task else { throw Self.failure(.closed) }
        do {
            switch message {
            case .text(let text): try await task.send(.string(text))
            case .binary(let data): try await task.send(.data(data))
            }
        } catch {
            throw failure(after: error, of: task)
        }
    }

    func receive() async throws -> WebSocketMessage? {
        guard let task else { return nil }
        do {
            let message = try await withTaskCancellationHandler {
                try await task.receive()
            } onCancel: {
                task.cancel(with: .goingAway, reason: nil)
            }
            switch message {
            case .string(let text): return .text(text)
            case .data(let data): return .binary(data)
            @unknown default: throw Self.failure(.protocolViolation, detail: "a message of an unknown kind")
            }
        } catch {
            if Task.isCancelled { throw NetworkError.cancelled }
            if task.closeCode != .invalid {
                recordClose(code: task.closeCode.rawValue, reason: task.closeReason)
                return nil
            }
            throw failure(after: error, of: task)
        }
    }

    func ping() async throws {
        guard let task else { throw Self.failure(.closed) }
        let outcome: (any Error)? = await withCheckedContinuation { continuation in
            // Resumed once, should the handler be called again.
            let pending = LockedState<CheckedContinuation<(any Error)?, Never>?>(continuation)
            task.sendPing { error in
                pending.withLock { pending in
                    defer { pending = nil }
                    return pending
                }?.resume(returning: error)
            }
        }
        if let outcome { throw failure(after: outcome, of: task) }
    }

    func close(_ close: WebSocketClose) async {
        guard let task, !state.withLock({ $0.ended }) else { return }
        let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(close.code.rawValue)) ?? .normalClosure
        task.cancel(with: code, reason: close.reason.isEmpty ? nil : Data(close.reason.utf8))
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Bool in
                if !state.ended { state.waitingForEnd.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }

    /// What a failed send, receive or ping means: the connection closed, a message over the
    /// limit, or the connection lost.
    private func failure(after error: any Error, of task: URLSessionWebSocketTask) -> NetworkError {
        if let failure = state.withLock({ $0.failure }) { return failure }
        if task.closeCode != .invalid {
            return Self.failure(.closed, close: WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(task.closeCode.rawValue))))
        }
        let nsError = error as NSError
        // Apple's URLSession fails a message over `maximumMessageSize` with EMSGSIZE.
        if nsError.domain == NSPOSIXErrorDomain, nsError.code == Int(EMSGSIZE) {
            return Self.failure(.messageTooLarge, close: WebSocketClose(code: .messageTooBig), underlying: error)
        }
        return Self.failure(.connectionLost, underlying: error)
    }

    private static func failure(
        _ kind: WebSocketFailure.Kind, detail: String? = nil, close: WebSocketClose? = nil, underlying: (any Error)? = nil
    ) -> NetworkError {
        .webSocket(WebSocketFailure(kind: kind, detail: detail, close: close, underlying: underlying))
    }

    private func recordClose(code: Int, reason: Data?) {
        let close = WebSocketClose(
            code: WebSocketCloseCode(rawValue: UInt16(clamping: code)), reason: reason.map { String(decoding: $0, as: UTF8.self) } ?? "")
        state.withLock { $0.closeReceived = $0.closeReceived ?? close }
    }

    // MARK: - URLSessionWebSocketDelegate

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) {
        let opening = state.withLock { state in
            state.subprotocol = `protocol`
            state.opened = true
            defer { state.opening = nil }
            return state.opening
        }
        // A subprotocol that was not offered breaks the handshake (RFC 6455 §4.1).
        if let chosen = `protocol`, !chosen.isEmpty, !subprotocols.contains(chosen) {
            webSocketTask.cancel(with: .protocolError, reason: nil)
            opening?.resume(
                throwing: Self.failure(.invalidHandshake, detail: "the server chose the subprotocol '\(chosen)', which was not offered"))
            return
        }
        var response = HTTPResponse(status: .switchingProtocols)
        if let head = (webSocketTask.response as? HTTPURLResponse)?.httpResponse { response = head }
        opening?.resume(returning: HTTPAnswer(response, webSocket: self))
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didCloseWith closeCode: URLSessionWebSocketTask.CloseCode,
        reason: Data?
    ) {
        recordClose(code: closeCode.rawValue, reason: reason)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (opening, waiting, failure) = state.withLock { state in
            state.ended = true
            defer {
                state.opening = nil
                state.waitingForEnd = []
            }
            return (state.opening, state.waitingForEnd, state.failure)
        }
        session.finishTasksAndInvalidate()
        for continuation in waiting { continuation.resume() }
        guard let opening else { return }
        // Refused with a status: the answer goes back up the chain (a 401 to refresh, a redirect to follow).
        if let response = (task.response as? HTTPURLResponse)?.httpResponse, response.status != .switchingProtocols {
            opening.resume(returning: HTTPAnswer(response))
            return
        }
        if let failure {
            opening.resume(throwing: failure)
        } else if let error {
            opening.resume(throwing: Self.openingFailure(error, request: request))
        } else {
            opening.resume(throwing: Self.failure(.connectionLost, detail: "the task ended before it opened"))
        }
    }

    /// A task that failed before it opened: FoundationNetworking without WebSocket support
    /// (`unsupportedURL`, "WebSockets not supported by libcurl"), or the transport's usual errors.
    static func openingFailure(_ error: any Error, request: RequestSummary) -> NetworkError {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain, nsError.code == URLError.Code.unsupportedURL.rawValue {
            return failure(
                .unsupported,
                detail:
                    "this URLSession cannot open WebSocket connections (on Linux, FoundationNetworking was built without libcurl's WebSocket support); use NIOTransport",
                underlying: error)
        }
        return URLErrorMapping.networkError(for: error, request: request)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        URLSessionTransportDelegate.answer(
            challenge, pins: pins, challengeHandler: challengeHandler, completionHandler: completionHandler
        ) { mismatch in
            state.withLock {
                $0.failure = .transport(TransportFailure(kind: .secureConnectionFailed, underlying: mismatch, request: request))
            }
        }
    }
}
