import Foundation
import HTTPTypes
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Downloads and uploads go through the whole middleware chain like any call: authentication and
/// its refresh, logging, and the calling task's cancellation.
@Suite("Transfers through the middleware chain", .timeLimit(.minutes(5)))
struct TransferThroughChainTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A refresher holding `old`, whose refresh hands out `new` and counts itself.
    private static func refresher(refreshes: Counter) -> TokenRefresher {
        TokenRefresher(store: InMemoryTokenStore(AuthToken(accessToken: "old", refreshToken: "r1"))) { _ in
            refreshes.increment()
            return AuthToken(accessToken: "new", refreshToken: "r2")
        }
    }

    @Test("a download refused with 401 refreshes the token once; the file comes from the retried request, the 401 nowhere in it")
    func downloadRefreshesToken() async throws {
        defer { folder.cleanup() }
        let data = patternedData(200_000)
        let refreshes = Counter()
        let (client, transport) = makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: Self.refresher(refreshes: refreshes))]) {
            request in
            guard request.header("Authorization") == "Bearer new" else {
                return .json(#"{"error":"expired"}"#, status: .unauthorized)
            }
            return StubFileServer(data: data).answer(request)
        }
        let destination = folder.url.appendingPathComponent("film.bin")
        let file = try await client.download(Request<Data>(path: "/films/1/reel"), to: destination)
        #expect(try Data(contentsOf: destination) == data)
        #expect(file.size == Int64(data.count))
        #expect(refreshes.value == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer old", "Bearer new"])
        #expect(folder.names == ["film.bin"])
    }

    @Test("an upload refused with 401 sends the file again, whole, with the refreshed token")
    func uploadRefreshesToken() async throws {
        defer { folder.cleanup() }
        let data = patternedData(700_000, salt: 3)
        let source = try folder.file("poster.png", data)
        let refreshes = Counter()
        let (client, transport) = makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: Self.refresher(refreshes: refreshes))]) {
            request in
            request.header("Authorization") == "Bearer new" ? .status(.noContent) : .status(.unauthorized)
        }
        let progress = ProgressRecorder()
        _ = try await client.upload(
            .file(source), to: Request<EmptyResponse>(path: "/posters/1", method: .put), progress: progress.handler)
        #expect(refreshes.value == 1)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.map(\.body) == [data, data])
        #expect(progress.values.last == TransferProgress(completed: Int64(data.count), total: Int64(data.count)))
    }

    @Test("a download and an upload are logged like any call, and what is logged leaves the bytes alone")
    func transfersAreLogged() async throws {
        defer { folder.cleanup() }
        let data = patternedData(150_000, salt: 5)
        let capture = LogCapture()
        let logging = LoggingMiddleware(logger: capture.logger(level: .info), requestLevel: .info, responseLevel: .info)
        let (client, transport) = makeClient(middlewares: [logging]) { request in
            request.method == .put ? .status(.noContent) : StubFileServer(data: data).answer(request)
        }
        let destination = folder.url.appendingPathComponent("film.bin")
        _ = try await client.download(Request<Data>(path: "/films/1/reel"), to: destination)
        _ = try await client.upload(.file(destination), to: Request<EmptyResponse>(path: "/films/1/reel", method: .put))
        #expect(try Data(contentsOf: destination) == data)
        #expect(transport.requests.last?.body == data)
        let sent = capture.records("Sending request")
        let received = capture.records("Received response")
        #expect(sent.map { $0.metadata["http.method"] } == ["GET", "PUT"])
        #expect(received.map { $0.metadata["http.status"] } == ["200", "204"])
    }

    @Test("cancelling an upload mid-body ends it with cancelled, and the rest of the file is never read")
    func cancellingAnUpload() async throws {
        defer { folder.cleanup() }
        let data = patternedData(3_000_000, salt: 7)
        let source = try folder.file("big.bin", data)
        let reader = SlowBodyReader()
        let client = LiveAPIClient(baseURL: testBaseURL, transport: reader)
        let upload = Task {
            try await client.upload(.file(source), to: Request<EmptyResponse>(path: "/uploads", method: .put))
        }
        await waitUntil { reader.bytesRead > 0 }
        upload.cancel()
        let error = await networkError { _ = try await upload.value }
        guard case .cancelled? = error else {
            Issue.record("expected cancelled, got \(String(describing: error))")
            return
        }
        #expect(reader.bytesRead < data.count)
    }
}

/// A transport that reads a request body one chunk at a time and holds after each chunk until
/// its task is cancelled: an upload to a server that stopped reading.
private final class SlowBodyReader: HTTPTransport {
    private let read = LockedState(0)
    private let gate = TransportGate()

    var bytesRead: Int { read.withLock { $0 } }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return (HTTPResponse(status: .noContent), nil) }
        for try await chunk in body {
            read.withLock { $0 += chunk.count }
            await gate.wait()
        }
        return (HTTPResponse(status: .noContent), nil)
    }
}
