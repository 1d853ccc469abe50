import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import DemoAPI

/// DemoAPI's router on a fresh state, for a test that reads its routes rather than drives it.
@available(macOS 14, iOS 17, tvOS 17, *)
func makeDemoRouter() -> Router<DemoRequestContext> {
    DemoApplication.makeRouter(state: DemoState(accessTokenLifetime: .seconds(300), refreshTokenLifetime: .seconds(3600)))
}

/// Drives DemoAPI's router in-process (no socket) with a fresh state per call, and hands the state
/// to the test so it can look at counters and stores directly.
@available(macOS 14, iOS 17, tvOS 17, *)
func withDemoRouter<Value: Sendable>(
    accessTokenLifetime: Duration = .seconds(300),
    _ test: @Sendable (any TestClientProtocol, DemoState) async throws -> Value
) async throws -> Value {
    let state = DemoState(accessTokenLifetime: accessTokenLifetime, refreshTokenLifetime: .seconds(3600))
    let app = DemoApplication.make(
        router: DemoApplication.makeRouter(state: state),
        host: "127.0.0.1",
        port: 0,
        logger: Logger(label: "DemoAPITests", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    return try await app.test(.router) { client in
        try await test(client, state)
    }
}

extension TestResponse {
    /// The body parsed as JSON; a body that is not JSON is recorded as a test issue and reads as `null`.
    /// Not throwing, so it can sit inside `#expect` without a `try`.
    var json: JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView))
        } catch {
            Issue.record("The response body is not JSON: \(text)")
            return .null
        }
    }

    /// A header HTTPTypes has no constant for (`Link`, `X-Total-Count`), by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.name.canonicalName == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    var text: String {
        String(decoding: body.readableBytesView, as: UTF8.self)
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    var arrayCount: Int? {
        guard case .array(let array) = self else { return nil }
        return array.count
    }

    var doubleValue: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }
}

/// A JSON request body from a literal.
func jsonBody(_ text: String) -> ByteBuffer {
    ByteBuffer(string: text)
}

/// Headers for a JSON request body.
let jsonHeaders: HTTPFields = [.contentType: "application/json"]
