import NIOHTTP1
@_spi(Transport) import NetworkingKit
import Testing
@testable import NetworkingKitAsyncHTTPClient

/// The check of a server's `Sec-WebSocket-Extensions` answer (RFC 7692 §7.1): what a hostile or
/// careless server may write there fails the handshake, typed, and never traps.
@Suite("WebSocket: permessage-deflate negotiation")
struct PerMessageDeflateNegotiationTests {
    static func negotiate(_ values: [String], compression: WebSocketCompression = .perMessageDeflate) -> Result<Int, NetworkError> {
        var headers = HTTPHeaders()
        for value in values { headers.add(name: "Sec-WebSocket-Extensions", value: value) }
        let response = HTTPResponseHead(version: .http1_1, status: .switchingProtocols, headers: headers)
        do {
            let extensions = try PerMessageDeflateNegotiation.extensions(
                in: response, compression: compression, limit: 1 << 20, failure: LockedState(nil))
            return .success(extensions.count)
        } catch let error as NetworkError {
            return .failure(error)
        } catch {
            return .failure(.unknown(error))
        }
    }

    @Test("the offer: permessage-deflate, bare; nothing when compression is off")
    func offer() {
        #expect(PerMessageDeflateNegotiation.offer(.perMessageDeflate) == "permessage-deflate")
        #expect(PerMessageDeflateNegotiation.offer(.disabled) == nil)
    }

    @Test(
        "answers the client accepts",
        arguments: [
            [], ["permessage-deflate"], ["PerMessage-Deflate"], ["permessage-deflate; server_no_context_takeover"],
            ["permessage-deflate;client_no_context_takeover"], ["permessage-deflate; server_max_window_bits=10"],
            [#"permessage-deflate; server_max_window_bits="8""#],
            ["permessage-deflate; server_max_window_bits=15; server_no_context_takeover; client_no_context_takeover"],
        ])
    func accepted(values: [String]) {
        let result = Self.negotiate(values)
        #expect((try? result.get()) == (values.isEmpty ? 0 : 1), "\(values): \(result)")
    }

    @Test(
        "answers that fail the handshake: not offered, unknown, repeated, malformed",
        arguments: [
            ["x-webkit-deflate-frame"], ["permessage-deflate, permessage-deflate"], ["permessage-deflate", "permessage-deflate"],
            ["permessage-deflate,"], [""], ["permessage-deflate; ; server_no_context_takeover"], ["permessage-deflate;="],
            ["permessage-deflate;"], ["permessage-deflate; client_max_window_bits=10"], ["permessage-deflate; client_max_window_bits"],
            ["permessage-deflate; server_max_window_bits=7"], ["permessage-deflate; server_max_window_bits=16"],
            ["permessage-deflate; server_max_window_bits=010"], ["permessage-deflate; server_max_window_bits=+10"],
            [#"permessage-deflate; server_max_window_bits="10"#], ["permessage-deflate; server_max_window_bits"],
            ["permessage-deflate; server_max_window_bits=15; server_max_window_bits=8"],
            ["permessage-deflate; server_no_context_takeover="], ["permessage-deflate; server_no_context_takeover=1"],
            ["permessage-deflate; x-extra"],
        ])
    func refused(values: [String]) {
        guard case .failure(.webSocket(let failure)) = Self.negotiate(values) else {
            Issue.record("\(values) was accepted")
            return
        }
        #expect(failure.kind == .invalidHandshake, "\(values): \(failure)")
    }

    @Test("compression off: a server that turns it on anyway fails the handshake")
    func notOffered() {
        guard case .failure(.webSocket(let failure)) = Self.negotiate(["permessage-deflate"], compression: .disabled) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.kind == .invalidHandshake)
    }
}
