import Foundation

/// A WebSocket that opens a new connection when its connection is lost, with backoff and jitter,
/// until it is closed; made by ``LiveAPIClient/webSocket(_:options:reconnection:)``.
///
/// ```swift
/// let live = client.webSocket(Prices.stream, reconnection: reconnection)
/// for try await update in live.updates {
///     switch update {
///     case .connected: print("live")
///     case .message(let message): print(message)
///     case .reconnecting(let after, let reason): print("reconnecting in", after, reason)
///     }
/// }
/// ```
///
/// - Nothing happens until ``updates`` is read: the first connection opens then. It has one
///   reader, and ends when ``close(code:reason:)`` is called, when the server ends the
///   conversation (a close frame other than those of
///   ``WebSocketReconnection/reconnects(after:)``), or throws when an attempt fails for good (a
///   `401` a refresh did not cure, a `404`) or too many fail in a row.
/// - ``send(_:)`` sends on the connection open now; while there is none it fails with
///   ``WebSocketFailure/Kind-swift.struct/connectionLost``, and the app decides whether to keep
///   the message for ``WebSocketReconnection/onConnect``.
public final class ReconnectingWebSocket: Sendable {
    private struct State {
        var connection: WebSocketConnection?
        var closing: WebSocketClose?
    }

    private let state = LockedState(State())
    private let open: @Sendable () async throws -> WebSocketConnection
    private let reconnection: WebSocketReconnection

    init(reconnection: WebSocketReconnection, open: @escaping @Sendable () async throws -> WebSocketConnection) {
        self.reconnection = reconnection
        self.open = open
    }

    /// The connection open now, if any.
    public var connection: WebSocketConnection? { state.withLock { $0.connection } }

    /// Sends a message on the connection open now.
    /// - Throws: ``NetworkError/webSocket(_:)``: ``WebSocketFailure/Kind-swift.struct/connectionLost``
    ///   while no connection is open, ``WebSocketFailure/Kind-swift.struct/closed`` once closed.
    public func send(_ message: WebSocketMessage) async throws {
        let (connection, closed) = state.withLock { ($0.connection, $0.closing != nil) }
        guard !closed else { throw NetworkError.webSocket(WebSocketFailure(kind: .closed)) }
        guard let connection else {
            throw NetworkError.webSocket(WebSocketFailure(kind: .connectionLost, detail: "no connection is open now; one is on its way"))
        }
        try await connection.send(message)
    }

    /// Stops reconnecting and closes the connection open now, if any; ``updates`` then ends.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        let connection = state.withLock { state in
            state.closing = state.closing ?? WebSocketClose(code: code, reason: reason)
            return state.connection
        }
        await connection?.close(code: code, reason: reason)
    }

    /// What happens, in order: each connection, each message, each reconnection.
    public var updates: Updates { Updates(socket: self) }

    /// The updates of a reconnecting WebSocket; one reader.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = WebSocketUpdate
        let socket: ReconnectingWebSocket

        /// Reads the next update, connecting and reconnecting as needed.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let socket: ReconnectingWebSocket
            private var messages: WebSocketConnection.Messages.AsyncIterator?
            /// Attempts failed in a row since the last connection opened.
            private var failures = 0
            private var previousDelay: Duration = .zero
            /// The wait before the next attempt, when one was announced.
            private var wait: Duration?
            private var ended = false

            init(socket: ReconnectingWebSocket) {
                self.socket = socket
            }

            /// The next update, or `nil` once the socket is closed.
            public mutating func next() async throws -> WebSocketUpdate? {
                guard !ended else { return nil }
                if let messages {
                    return try await read(messages)
                }
                if let wait {
                    self.wait = nil
                    try await socket.reconnection.clock.sleep(for: wait)
                }
                guard !socket.isClosing else { return finish() }
                do {
                    let connection = try await socket.open()
                    do {
                        try await socket.reconnection.onConnect?(connection)
                    } catch {
                        await connection.close(code: .goingAway)
                        throw error
                    }
                    guard socket.adopt(connection) else {
                        await connection.close()
                        return finish()
                    }
                    failures = 0
                    messages = connection.messages.makeAsyncIterator()
                    return .connected(connection)
                } catch {
                    return try retry(after: Self.networkError(error), failed: true)
                }
            }

            /// The next message of the connection open now, or what its end means.
            private mutating func read(_ current: WebSocketConnection.Messages.AsyncIterator) async throws -> WebSocketUpdate? {
                var current = current
                do {
                    if let message = try await current.next() {
                        messages = current
                        return .message(message)
                    }
                    // The close handshake is over: who closed, and why, decides.
                    let close = current.connection.closeFrame
                    messages = nil
                    socket.drop(current.connection)
                    guard !socket.isClosing, let close, WebSocketReconnection.reconnects(after: close) else { return finish() }
                    return try retry(after: .webSocket(WebSocketFailure(kind: .closed, close: close)), failed: false)
                } catch {
                    messages = nil
                    socket.drop(current.connection)
                    // Closed by the app meanwhile: however the connection ended, the updates end.
                    if socket.isClosing { return finish() }
                    let failure = Self.networkError(error)
                    guard case .webSocket(let webSocket) = failure, webSocket.kind == .connectionLost else {
                        ended = true
                        throw failure
                    }
                    return try retry(after: failure, failed: false)
                }
            }

            /// A reconnection announced, or the error when it may not be tried.
            private mutating func retry(after reason: NetworkError, failed: Bool) throws -> WebSocketUpdate? {
                if socket.isClosing { return finish() }
                let policy = socket.reconnection.backoff
                if failed {
                    failures += 1
                    // A connection lost as it opened is tried again, as a refused one is.
                    let lost = if case .webSocket(let failure) = reason { failure.kind == .connectionLost } else { false }
                    guard failures < policy.maxAttempts, lost || policy.decision(for: reason) != .stop else {
                        ended = true
                        throw reason
                    }
                }
                let delay = policy.delay(forRetry: Swift.max(1, failures), previous: previousDelay, random: socket.reconnection.random)
                previousDelay = delay
                wait = delay
                return .reconnecting(after: delay, reason: reason)
            }

            private mutating func finish() -> WebSocketUpdate? {
                ended = true
                return nil
            }

            private static func networkError(_ error: any Error) -> NetworkError {
                error as? NetworkError ?? (error is CancellationError ? .cancelled : .unknown(error))
            }
        }

        /// An iterator over the updates.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(socket: socket)
        }
    }

    private var isClosing: Bool { state.withLock { $0.closing != nil } }

    /// Makes `connection` the one open now; `false` when the socket was closed meanwhile.
    private func adopt(_ connection: WebSocketConnection) -> Bool {
        state.withLock { state in
            guard state.closing == nil else { return false }
            state.connection = connection
            return true
        }
    }

    private func drop(_ connection: WebSocketConnection) {
        state.withLock { state in
            if state.connection === connection { state.connection = nil }
        }
    }
}
