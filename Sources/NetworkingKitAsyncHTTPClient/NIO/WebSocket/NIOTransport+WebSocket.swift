#if AsyncHTTPClientTransport || DemoAPI
import Foundation
public import HTTPTypes
@_spi(Transport) public import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOWebSocket

extension NIOTransport: WebSocketTransport {
    /// Opens a WebSocket connection: a connection of its own to the origin (TCP, TLS with the
    /// pins, as for any request, never pooled), the HTTP/1.1 upgrade, then swift-websocket's
    /// message layer (masking, fragments, ping and pong, the close handshake) and its
    /// `permessage-deflate`, when ``/NetworkingKit/WebSocketOptions/compression`` offers it and
    /// the server accepts.
    ///
    /// A refused upgrade comes back as the server's answer, its body read (within 64 KiB), the
    /// connection closed. The handshake is bounded by the call's timeout, and its timing reported
    /// as a request's (DNS, connect, TLS, first byte).
    public func openWebSocket(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPAnswer {
        let summary = RequestSummary(request)
        var options = context.plan.webSocket ?? WebSocketOptions()
        // A frame's length is checked as SwiftNIO reads it, within 32 bits.
        options.maximumMessageSize = max(1, min(options.maximumMessageSize, WebSocketOptions.largestMessageSize))
        let deadline = ContinuousClock.now + context.plan.timeout
        let (origin, head) = try requestHead(for: request, body: nil, summary: summary, decodes: false)
        if !origin.isSecure {
            try configuration.pins.refuseUncheckable(request, checksCertificates: true, transport: "NIOTransport")
        }
        var marks = HTTP1Exchange.TimingMarks(start: .now)
        let channel: any Channel
        let outcome: WebSocketUpgrade.Outcome
        do {
            try Task.checkCancellation()
            try pool.refuseIfShutDown()
            channel = try await pool.openChannel(to: origin, on: nil, deadline: deadline, marks: &marks)
            marks.sent = marks.start.duration(to: .now)
            outcome = try await WebSocketUpgrade.run(on: channel, head: head, options: options, deadline: deadline)
        } catch let error as NetworkError {
            throw error.attaching(summary)
        } catch {
            throw AsyncHTTPClientErrorMapping.networkError(for: error, phase: .head, request: summary).attaching(summary)
        }
        marks.head = marks.start.duration(to: .now)
        switch outcome {
        case .refused(let responseHead, let body):
            let response = try HTTPResponse(status: responseHead.status, headers: responseHead.headers, request: summary)
            var answer = HTTPAnswer(response, body: body.map { HTTPBody(Data($0.readableBytesView)) })
            answer.timing = marks.requestTiming
            return answer
        case .declined:
            throw NetworkError.webSocket(WebSocketFailure(kind: .connectionLost, detail: "no answer to the upgrade", request: summary))
        case .upgraded(let asyncChannel, let responseHead, let subprotocol, let extensions, let watcher):
            let response = try HTTPResponse(status: responseHead.status, headers: responseHead.headers, request: summary)
            let webSocket = try await NIOWebSocketChannel.start(
                asyncChannel, subprotocol: subprotocol, extensions: extensions, watcher: watcher, options: options,
                logger: context.logger)
            var answer = HTTPAnswer(response, webSocket: webSocket)
            answer.timing = marks.requestTiming
            return answer
        }
    }
}
#endif
