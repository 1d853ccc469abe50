import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// A server that compresses a download although it was asked for `identity`: what it decodes to
/// is bounded like any answer held whole, unless the endpoint says otherwise.
@Suite("Conformance: compressed downloads", .timeLimit(.minutes(3)))
struct CompressedDownloadTests {
    private static func bomb(inflatedTo size: Int, limit: Int? = nil) -> Request<Data> {
        Request<Data>(
            path: "/encoding/bomb", query: [URLQueryItem(name: "inflated", value: "\(size)")],
            options: RequestOptions(maxResponseBodySize: limit))
    }

    private static func withDestination<T>(_ body: (URL) async throws -> T) async rethrows -> T {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        return try await body(destination)
    }

    @Test(
        "a gzip bomb downloaded stops at the client's default limit with responseTooLarge, and leaves no file",
        arguments: TransportKind.allCases)
    func bombStopsAtDefaultLimit(kind: TransportKind) async throws {
        try await withDemoServer { server in
            await Self.withDestination { destination in
                let error = await networkError {
                    _ = try await makeClient(server, kind).download(Self.bomb(inflatedTo: 256 << 20), to: destination)
                }
                guard case .responseTooLarge(let limit, _)? = error else {
                    Issue.record("expected responseTooLarge, got \(String(describing: error))")
                    return
                }
                #expect(limit == LiveAPIClient.Configuration.defaultMaxResponseBodySize)
                #expect(!FileManager.default.fileExists(atPath: destination.path))
            }
        }
    }

    @Test(
        "without an endpoint limit the client's applies; a resumable download of a compressed answer keeps nothing to resume",
        arguments: TransportKind.allCases)
    func clientLimitAndNothingKept(kind: TransportKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bombs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withDemoServer { server in
            let client = makeClient(server, kind, maxResponseBodySize: 2 << 20)
            let destination = folder.appendingPathComponent("bomb.bin")
            let error = await networkError {
                _ = try await client.download(Self.bomb(inflatedTo: 8 << 20), to: destination, resumable: true)
            }
            guard case .responseTooLarge(let limit, _)? = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 2 << 20)
            // Decoded bytes, which a Range counted in the server's encoded ones could not continue.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left == [])
        }
    }

    @Test(
        "the endpoint's own limit applies to the decoded bytes instead, a larger one lets a larger file through",
        arguments: TransportKind.allCases)
    func endpointLimit(kind: TransportKind) async throws {
        try await withDemoServer { server in
            try await Self.withDestination { destination in
                let client = makeClient(server, kind)
                let error = await networkError {
                    _ = try await client.download(Self.bomb(inflatedTo: 8 << 20, limit: 1 << 20), to: destination)
                }
                guard case .responseTooLarge(let limit, _)? = error else {
                    Issue.record("expected responseTooLarge, got \(String(describing: error))")
                    return
                }
                #expect(limit == 1 << 20)

                let size = 40 << 20
                let file = try await client.download(Self.bomb(inflatedTo: size, limit: .max), to: destination)
                #expect(file.size == Int64(size))
                let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
                #expect((attributes[.size] as? NSNumber)?.intValue == size)
            }
        }
    }
}
