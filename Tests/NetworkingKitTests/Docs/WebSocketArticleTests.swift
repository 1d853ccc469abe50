// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import Foundation
import NetworkingKit
import Testing

// The Swift samples of the WebSocket DocC article, compiled: each sits between `article-sample`
// markers, exactly as in the article, and the test below fails when they differ.

private enum WebSocketArticleSamples {
    static func echo(client: LiveAPIClient) async throws {
        // <article-sample>
        let connection = try await client.webSocket(Request<Void>(path: "/ws/echo"))
        try await connection.send(.text("hello"))
        for try await message in connection.messages {
            switch message {
            case .text(let text): print(text)
            case .binary(let data): print(data.count, "bytes")
            }
        }
        print(connection.closeFrame?.description ?? "no close frame")
        // </article-sample>
    }

    static func closing(connection: WebSocketConnection) async throws {
        // <article-sample>
        do {
            for try await message in connection.messages {
                print(message)
            }
            print("closed by the server:", connection.closeFrame?.description ?? "")
        } catch NetworkError.webSocket(let failure) where failure.kind == .connectionLost {
            print("lost; open a new connection")
        }
        // </article-sample>
    }

    static func options(client: LiveAPIClient) async throws {
        // <article-sample>
        let options = WebSocketOptions(maximumMessageSize: 4 << 20, subprotocols: ["chat.v2", "chat.v1"], pingInterval: .seconds(30))
        let chat = try await client.webSocket(Request<Void>(path: "/ws/protocol"), options: options)
        print(chat.subprotocol ?? "none")
        // </article-sample>
    }

    static func reconnecting(client: LiveAPIClient) async throws {
        // <article-sample>
        var reconnection = WebSocketReconnection()
        reconnection.onConnect = { connection in
            try await connection.send(.text(#"{"subscribe":"prices"}"#))
        }
        let live = client.webSocket(Request<Void>(path: "/ws/echo"), reconnection: reconnection)
        for try await update in live.updates {
            switch update {
            case .connected(let connection): print("live:", connection.response.status)
            case .message(let message): print(message)
            case .reconnecting(let after, let reason): print("reconnecting in", after, "after", reason)
            }
        }
        // </article-sample>
    }
}

@Suite("WebSocket article samples")
struct WebSocketArticleTests {
    @Test("every Swift sample of WebSocket.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/WebSocket.md", testFile: #filePath, marker: "article-sample")
    }
}
