public import Foundation
public import HTTPTypes

/// An open WebSocket connection: messages both ways until one side closes it.
///
/// Made by ``LiveAPIClient/webSocket(_:options:)``, after the upgrade request went through the
/// client's middlewares (authentication, logging, metrics, tracing) and redirect policy.
///
/// ```swift
/// let connection = try await client.webSocket(Chat.room("general"))
/// try await connection.send(.text("hello"))
/// for try await message in connection.messages {
///     if case .text(let text) = message { print(text) }
/// }
/// print("closed:", connection.closeFrame?.description ?? "no close frame")
/// ```
///
/// - ``messages`` has one reader. It ends when the close handshake is over, whoever began it;
///   ``closeFrame`` then says why. It throws ``NetworkError/webSocket(_:)`` when the connection
///   ends otherwise (``WebSocketFailure/Kind-swift.struct/connectionLost``) or the server sends
///   a message over ``WebSocketOptions/maximumMessageSize``
///   (``WebSocketFailure/Kind-swift.struct/messageTooLarge``, the connection closed with 1009).
/// - Cancelling the task that reads closes the connection (``WebSocketCloseCode/goingAway``).
/// - A connection no longer referenced closes the same way; call ``close(code:reason:)`` to
///   choose the code and wait for the server's reply.
public final class WebSocketConnection: Sendable {
    /// The upgrade request: method and URL, as the caller asked for it.
    public let request: RequestSummary
    /// The server's `101 Switching Protocols`.
    public let response: HTTPResponse
    /// The URLs the upgrade visited when it was redirected, the first included; empty otherwise.
    public let redirectChain: [URL]
    let channel: any WebSocketChannel
    private let timingBox: TimingBox?
    /// Pings every ``WebSocketOptions/pingInterval``, when there is one.
    private let keepalive: Task<Void, Never>?

    init(
        request: RequestSummary, answer: HTTPAnswer, channel: any WebSocketChannel, pingInterval: Duration?,
        clock: any Clock<Duration>
    ) {
        self.request = request
        self.response = answer.response
        self.redirectChain = answer.redirects
        self.timingBox = answer.timingBox
        self.channel = channel
        // The task holds the channel, not the connection, so that dropping the connection closes it.
        keepalive = pingInterval.map { interval in Task { await Self.keepAlive(channel, every: interval, on: clock) } }
    }

    deinit {
        keepalive?.cancel()
        let channel = channel
        Task { await channel.close(WebSocketClose(code: .goingAway)) }
    }

    /// Sends a ping every `interval` while the connection is open; when its pong has not come by
    /// the next one, closes the connection with 1001: its reader then fails with
    /// ``WebSocketFailure/Kind-swift.struct/connectionLost`` when the peer is dead (no close frame
    /// comes back), or ends if a slow peer still answers the close.
    /// One sleep at a time on `clock`: the next ping's time is the last one's deadline.
    static func keepAlive(_ channel: any WebSocketChannel, every interval: Duration, on clock: any Clock<Duration>) async {
        let answered = LockedState(true)
        var ping: Task<Void, Never>?
        defer { ping?.cancel() }
        while true {
            do { try await clock.sleep(for: interval) } catch { return }
            guard answered.withLock({ $0 }) else {
                await channel.close(WebSocketClose(code: .goingAway, reason: "no pong"))
                return
            }
            answered.withLock { $0 = false }
            // Not waited for: a transport whose ping ignores cancellation cannot hold the keepalive.
            ping = Task {
                guard (try? await channel.ping()) != nil else { return }
                answered.withLock { $0 = true }
            }
        }
    }

    /// Where the time of the upgrade went, as its transport reported it.
    public var timing: RequestTiming? { timingBox?.timing }

    /// The subprotocol the server chose among ``WebSocketOptions/subprotocols``, if any.
    public var subprotocol: String? { channel.subprotocol }

    /// The close frame the server sent, once it has: its code and reason.
    public var closeFrame: WebSocketClose? { channel.closeReceived }

    /// The messages from the server, in order, as they arrive.
    public var messages: Messages { Messages(connection: self) }

    /// Sends a message.
    /// - Throws: ``NetworkError/webSocket(_:)`` (``WebSocketFailure/Kind-swift.struct/closed``
    ///   once the connection is closed).
    public func send(_ message: WebSocketMessage) async throws {
        do {
            try await channel.send(message)
        } catch {
            throw LiveAPIClient.normalize(error, request: request)
        }
    }

    /// Sends a ping and returns when the server's pong arrives.
    public func ping() async throws {
        do {
            try await channel.ping()
        } catch {
            throw LiveAPIClient.normalize(error, request: request)
        }
    }

    /// Closes the connection: sends a close frame with `code` and `reason`, and returns once the
    /// server has answered it (or the transport stopped waiting). Closing a closed connection
    /// does nothing.
    /// - Parameters:
    ///   - code: Why; one that ``WebSocketCloseCode/canBeSent``, or ``WebSocketCloseCode/normalClosure`` is sent.
    ///   - reason: A few words; cut to ``WebSocketClose/maximumReasonLength`` bytes of UTF-8.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        keepalive?.cancel()
        await channel.close(WebSocketClose(code: code.canBeSent ? code : .normalClosure, reason: Self.cut(reason)))
    }

    /// `reason` cut at a character boundary to fit a close frame.
    static func cut(_ reason: String) -> String {
        guard reason.utf8.count > WebSocketClose.maximumReasonLength else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + character.utf8.count <= WebSocketClose.maximumReasonLength else { break }
            cut.append(character)
        }
        return cut
    }

    /// The messages of a connection, read as they arrive; one reader at a time.
    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = WebSocketMessage
        let connection: WebSocketConnection

        /// Reads the next message.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let connection: WebSocketConnection

            /// The next message, or `nil` once the close handshake is over.
            public mutating func next() async throws -> WebSocketMessage? {
                do {
                    return try await connection.channel.receive()
                } catch {
                    throw LiveAPIClient.normalize(error, request: connection.request)
                }
            }
        }

        /// An iterator over the messages.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(connection: connection)
        }
    }
}
