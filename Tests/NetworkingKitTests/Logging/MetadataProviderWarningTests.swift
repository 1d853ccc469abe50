import Foundation
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// A log handler as many are written: no support for metadata providers. swift-log warns (once per
/// handler type, through the handler itself) when anything assigns it a provider, even `nil`.
private struct PlainLines: LogHandler {
    let lines: LockedState<[String]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append(event.message.description) }
    }
}

@Suite("LoggingMiddleware and metadata providers")
struct MetadataProviderWarningTests {
    @Test("a handler without metadata-provider support logs no swift-log warning through LoggingMiddleware")
    func noWarningForPlainHandlers() async throws {
        let lines = LockedState<[String]>([])
        let logger = Logger(label: "plain") { _ in PlainLines(lines: lines) }
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: testBaseURL, transport: StubTransport { _ in .json(#"{"ok":true}"#) },
                middlewares: [LoggingMiddleware()], logger: logger))
        try await client.request(Request<EmptyResponse>(path: "/films"))
        let written = lines.withLock { $0 }
        #expect(written.contains("Received response"))
        #expect(!written.contains { $0.contains("metadataProvider") })
    }
}
