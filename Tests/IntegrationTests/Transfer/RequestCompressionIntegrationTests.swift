import Crypto
import DemoAPI
import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Compressed request bodies, decoded and checked by DemoAPI's `/upload`, over every transport.
@Suite("Request compression over every transport", .timeLimit(.minutes(5)))
struct RequestCompressionIntegrationTests {
    struct Receipt: Decodable, Sendable {
        let size: Int
        let sha256: String
        let encodedSize: Int?
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Text that compresses as JSON does: repetitive, not uniform.
    static func text(_ count: Int) -> Data {
        var data = Data(capacity: count)
        var index = 0
        while data.count < count {
            data.append(contentsOf: #"{"id":\#(index),"title":"Toy Story \#(index % 7)","rating":\#(index % 5)},"#.utf8)
            index += 1
        }
        return data.prefix(count)
    }

    static func options(_ compression: RequestCompression) -> RequestOptions {
        var options = RequestOptions()
        options.requestCompression = compression
        return options
    }

    @Test(
        "a file streamed and compressed as it goes: decoded whole, fewer bytes sent, progress in the bytes sent",
        arguments: TransportKind.allCases)
    func streamedFile(kind: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nk-gzip-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let data = Self.text(8 * 1024 * 1024)
        try data.write(to: file)
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let progress = ProgressRecorder()
            let receipt = try await client.upload(
                .file(file), to: Request<Receipt>(path: "/upload", method: .put, options: Self.options(.gzip)), progress: progress.handler)
            #expect(receipt.value.size == data.count)
            #expect(receipt.value.sha256 == Self.sha256(data))
            let sent = try #require(receipt.value.encodedSize)
            #expect(sent < data.count / 4, "sent \(sent) of \(data.count)")
            #expect(progress.isMonotone(endingAt: Int64(sent)))
        }
    }

    @Test("a body in memory, deflate; a 307 sends it again, compressed again", arguments: TransportKind.allCases)
    func bufferedAndRedirected(kind: TransportKind) async throws {
        let data = Self.text(300_000)
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let direct = try await client.send(
                Request<Receipt>(path: "/upload", method: .post, body: .data(data), options: Self.options(.deflate)))
            #expect(direct.sha256 == Self.sha256(data) && direct.encodedSize != nil)

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nk-deflate-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try data.write(to: file)
            let redirected = try await client.send(
                Request<Receipt>(
                    path: "/redirect/307", method: .post, query: [URLQueryItem(name: "to", value: "/upload")], body: .file(file),
                    options: Self.options(.gzip)))
            #expect(redirected.size == data.count && redirected.sha256 == Self.sha256(data))
            #expect(server.stats.count("POST /redirect/{code}") == 1)
        }
    }
}
