import Foundation
import Logging
import NetworkingKit
import NetworkingKitTesting

/// The secrets the logging tests send, and the redaction that declares them.
enum Secrets {
    static let apiKeyHeader = "k3y-header-secret"
    static let cookie = "c00kie-secret"
    static let queryKey = "q-secret-value"
    static let bearer = "b3arer-secret"

    static var all: [String] { [apiKeyHeader, cookie, queryKey, bearer] }

    static let redaction = Redaction.default.adding(headers: ["X-API-Key"], queryParameters: ["api_key"])

    /// `GET /films?api_key=…&page=2` with a secret in every place a secret goes.
    static let endpoint = TestEndpoint(
        path: "/films",
        headers: ["X-API-Key": apiKeyHeader, "Cookie": "session=\(cookie)", "Authorization": "Bearer \(bearer)"],
        queryItems: [URLQueryItem(name: "api_key", value: queryKey), URLQueryItem(name: "page", value: "2")])

    /// The records that show a secret, for a readable failure message.
    static func leaks(in records: [LogRecord]) -> [String] {
        records.map(\.rendered).filter { line in all.contains { line.contains($0) } }
    }
}

/// A decodable answer for the stubbed routes.
struct OK: Decodable, Sendable, Equatable {
    let ok: Bool
}

/// A client over a stub transport whose call logger writes to `capture`, with `logging`
/// outermost and `inner` after it.
func makeLoggedClient(
    _ capture: LogCapture,
    level: Logger.Level = .trace,
    logging: LoggingMiddleware = LoggingMiddleware(redaction: Secrets.redaction),
    inner: [any Middleware] = [],
    _ handler: @escaping StubTransport.Handler = { _ in .json(#"{"ok":true}"#) }
) -> (LiveAPIClient, StubTransport) {
    let transport = StubTransport(handler)
    let client = LiveAPIClient(
        configuration: LiveAPIClient.Configuration(
            baseURL: testBaseURL, transport: transport, middlewares: [logging] + inner,
            logger: capture.logger(level: level)))
    return (client, transport)
}
