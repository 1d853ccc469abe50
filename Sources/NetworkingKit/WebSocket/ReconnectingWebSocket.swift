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
/// - Stop reading ``updates`` only after ``close(code:reason:)``: a reader that leaves the loop
///   otherwise leaves the connection open, and reading again opens another.
/// - ``send(_:)`` sends on the connection open now; while there is none it fails with
///   ``WebSocketFailure/Kind-swift.struct/connectionLost``, and the app decides whether to keep
///   the message for ``WebSocketReconnection/onConnect``.
public final class ReconnectingWebSocket: Sendable {
    private struct State {
        var connection: WebSocketConnection?
        var closing: WebSocketClose?
        /// The wait before the next attempt, while it lasts: ``close(code:reason:)`` ends it.
        var backoff: Task<Void, any Error>?
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
        let (connection, backoff) = state.withLock { state in
            state.closing = state.closing ?? WebSocketClose(code: code, reason: reason)
            return (state.connection, state.backoff)
        }
        backoff?.cancel()
        await connection?.close(code: code, reason: reason)
    }

    /// Waits `delay` on the reconnection's clock, unless the socket is closed (or the reader
    /// cancelled) first.
    private func wait(_ delay: Duration) async {
        let clock = reconnection.clock
        let sleep = Task { try await clock.sleep(for: delay) }
        let closing = state.withLock { state in
            state.backoff = sleep
            return state.closing != nil
        }
        if closing { sleep.cancel() }
        await withTaskCancellationHandler {
            _ = try? await sleep.value
        } onCancel: {
            sleep.cancel()
        }
        state.withLock { $0.backoff = nil }
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
            /// Reconnections announced since a connection last brought a message: the backoff's
            /// step, so that a server that accepts and drops at once is backed off too.
            private var reconnections = 0
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
                    await socket.wait(wait)
                    if Task.isCancelled, !socket.isClosing {
                        ended = true
                        throw NetworkError.cancelled
                    }
                }
                guard !socket.isClosing else { return finish() }
                do {
                    let connection = try await socket.open()
                    // Adopted before onConnect runs, so that close() meanwhile closes it with its own code.
                    guard socket.adopt(connection) else {
                        await socket.closeLate(connection)
                        return finish()
                    }
                    do {
                        try await socket.reconnection.onConnect?(connection)
                    } catch {
                        socket.drop(connection)
                        await connection.close(code: .goingAway)
                        throw error
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
                        // A connection that brings messages is healthy: the backoff starts over.
                        reconnections = 0
                        previousDelay = .zero
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
                    guard failures < policy.maxAttempts, Self.isTransient(reason) || policy.decision(for: reason) != .stop else {
                        ended = true
                        throw reason
                    }
                }
                reconnections += 1
                let delay = policy.delay(forRetry: reconnections, previous: previousDelay, random: socket.reconnection.random)
                previousDelay = delay
                wait = delay
                return .reconnecting(after: delay, reason: reason)
            }

            private mutating func finish() -> WebSocketUpdate? {
                ended = true
                return nil
            }

            /// A connection lost as it opened, or closed by a server going away (as `onConnect`
            /// spoke, say): tried again, as a refused connection is.
            private static func isTransient(_ reason: NetworkError) -> Bool {
                guard case .webSocket(let failure) = reason else { return false }
                if failure.kind == .connectionLost { return true }
                return failure.kind == .closed && failure.close.map(WebSocketReconnection.reconnects(after:)) == true
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

    /// Closes a connection that opened after ``close(code:reason:)``, with its code and reason.
    private func closeLate(_ connection: WebSocketConnection) async {
        let close = state.withLock { $0.closing } ?? WebSocketClose(code: .normalClosure)
        await connection.close(code: close.code, reason: close.reason)
    }

    private func drop(_ connection: WebSocketConnection) {
        state.withLock { state in
            if state.connection === connection { state.connection = nil }
        }
    }
}
