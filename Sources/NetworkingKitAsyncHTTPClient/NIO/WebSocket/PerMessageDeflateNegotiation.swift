#if AsyncHTTPClientTransport || DemoAPI
import CompressNIO
import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1
import NIOWebSocket
import WSCompression
@_spi(WSInternal) import WSCore

/// `permessage-deflate` (RFC 7692) between ``WebSocketCompression`` and swift-websocket's
/// extension: what the upgrade offers, the server's answer checked, and the inflate limit.
enum PerMessageDeflateNegotiation {
    static let name = "permessage-deflate"

    /// The `Sec-WebSocket-Extensions` offer, or `nil` when compression is off.
    ///
    /// The bare offer, as OkHttp makes it: no `client_max_window_bits`, so a server may not
    /// narrow the client's window (zlib cannot deflate with RFC 7692's smallest, 8 bits).
    /// Each message the client sends is compressed on its own (no context takeover, which a
    /// client may choose alone): about 256 KiB of deflate state per connection all the same.
    static func offer(_ compression: WebSocketCompression) -> String? {
        compression.isEnabled ? name : nil
    }

    /// The extensions a `101` turned on: none, or `permessage-deflate` with the server's
    /// parameters, checked as RFC 7692 §7.1 asks: an extension that was not offered, a parameter
    /// the client did not allow or a window out of range fails the handshake.
    ///
    /// An inflated frame is held to `limit` bytes; a failure to inflate is kept in `failure` for
    /// the reader (swift-websocket's handler closes the connection for it, and says nothing more).
    static func extensions(
        in response: HTTPResponseHead, compression: WebSocketCompression, limit: Int, failure: LockedState<NetworkError?>
    ) throws -> [any WebSocketExtension] {
        let elements = response.headers["Sec-WebSocket-Extensions"].flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        guard let element = elements.first else { return [] }
        let parameters = element.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let chosen = parameters[0]
        guard compression.isEnabled, chosen.lowercased() == name else {
            throw invalidHandshake("the server chose the extension '\(chosen)', which was not offered")
        }
        guard elements.count == 1 else {
            throw invalidHandshake("the server chose more than one extension")
        }
        // The client compresses each message on its own, whatever the server allows: a send
        // cancelled after its frame was compressed then leaves the server no history it lacks.
        var accepted = [name, "client_no_context_takeover"]
        var seen: Set<String> = []
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let key = pair[0].lowercased()
            let value = pair.count > 1 ? pair[1] : nil
            guard seen.insert(key).inserted else {
                throw invalidHandshake("the server answered permessage-deflate with '\(key)' twice")
            }
            switch (key, value) {
            case ("server_no_context_takeover", nil):
                accepted.append(key)
            case ("client_no_context_takeover", nil):
                break
            // The server's window is checked, and not used: a 15-bit window inflates any smaller
            // one (and zlib up to 1.2.8 deflates with 9 bits when asked for 8).
            case ("server_max_window_bits", let bits?) where Self.isWindowBits(bits):
                break
            default:
                throw invalidHandshake("the server answered permessage-deflate with '\(parameter)', which the client did not allow")
            }
        }
        // One byte past the limit: CompressNIO fails an inflate that fills its room exactly, and
        // a message of exactly `limit` bytes is allowed. The reader holds a frame to `limit`.
        let builder = WebSocketExtensionFactory.perMessageDeflate(
            maxDecompressedFrameSize: limit + 1, minFrameSizeToCompress: compression.minimumMessageSize
        ).build()
        let answer = HTTPFields([HTTPField(name: .secWebSocketExtensions, value: accepted.joined(separator: "; "))])
        guard let deflate = try builder.clientExtension(from: WebSocketExtensionHTTPParameters.parseHeaders(answer)) else {
            return []
        }
        return [Reporting(inner: deflate, limit: limit, failure: failure)]
    }

    /// `8` to `15`, as RFC 7692 §7.1.2 writes a window: digits with no leading zero, or the same
    /// in quotes.
    private static func isWindowBits(_ value: String) -> Bool {
        let unquoted = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
        return (8...15).map(String.init).contains(unquoted)
    }

    private static func invalidHandshake(_ detail: String) -> NetworkError {
        .webSocket(WebSocketFailure(kind: .invalidHandshake, detail: detail))
    }

    /// swift-websocket's extension, with its failures to inflate kept for the reader: a message
    /// over the limit once inflated (a decompression bomb) closes with 1009, data that does not
    /// inflate with 1002.
    ///
    /// swift-websocket's handler would close the connection for an error thrown here and go on
    /// reading, the reader told nothing and left waiting on a server that may never answer; so the
    /// frame comes back empty instead, and the reader, seeing the failure, closes with its code.
    struct Reporting: WebSocketExtension {
        let inner: any WebSocketExtension
        let limit: Int
        let failure: LockedState<NetworkError?>

        var name: String { inner.name }
        var reservedBits: WebSocketFrame.ReservedBits { inner.reservedBits }

        func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
            do {
                return try await inner.processReceivedFrame(frame, context: context)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                record(.messageTooLarge, "a compressed message that inflates past \(limit) bytes", code: .messageTooBig)
            } catch {
                record(.protocolViolation, "a compressed message that does not inflate (\(error))", code: .protocolError)
            }
            return WebSocketFrame(fin: true, opcode: frame.opcode, data: ByteBuffer())
        }

        func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
            try await inner.processFrameToSend(frame, context: context)
        }

        func shutdown() async {
            await inner.shutdown()
        }

        private func record(_ kind: WebSocketFailure.Kind, _ detail: String, code: WebSocketCloseCode) {
            let reported = NetworkError.webSocket(WebSocketFailure(kind: kind, detail: detail, close: WebSocketClose(code: code)))
            failure.withLock { $0 = $0 ?? reported }
        }
    }
}
#endif
