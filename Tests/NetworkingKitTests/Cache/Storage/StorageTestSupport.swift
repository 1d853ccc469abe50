import Foundation
import NetworkingKit

/// Responses, keys and directories for the cache storage tests.
enum StorageFixture {
    /// A response with `body` and a couple of header fields, distinct per body and vary values.
    static func response(_ body: String = "hello", vary: [String: String] = [:]) -> CachedResponse {
        CachedResponse(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain", .cacheControl: "max-age=60"]),
            body: Data(body.utf8),
            // Fractional seconds: a storage must give back exactly the dates it was given.
            requestTime: Date(timeIntervalSince1970: 1_700_000_000.123_456),
            responseTime: Date(timeIntervalSince1970: 1_700_000_000.654_321),
            varyValues: vary)
    }

    /// A response without header fields whose body is `size` bytes of `byte`, for size arithmetic:
    /// it costs a memory storage `size + 2` bytes (the body and the reason phrase "OK").
    static func response(size: Int, byte: UInt8 = 0x61) -> CachedResponse {
        CachedResponse(
            response: HTTPResponse(status: .ok), body: Data(repeating: byte, count: size),
            requestTime: Date(timeIntervalSince1970: 1_700_000_000), responseTime: Date(timeIntervalSince1970: 1_700_000_001))
    }

    static func key(_ path: String, partition: String = "") -> CacheKey {
        CacheKey(url: "https://api.example.com/\(path)", partition: partition)
    }

    /// A fresh directory path (not created) for one test, removed afterwards.
    static func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cache-storage-tests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    /// The names of the entry files in `directory`: everything but hidden (temporary) files.
    static func entryFiles(in directory: URL) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Set(names.filter { !$0.hasPrefix(".") })
    }

    /// Stores `response` for `key` in a disk storage over `directory` and returns the name of the
    /// file that appeared for it.
    static func storeAndFindFile(
        _ response: CachedResponse, for key: CacheKey, in storage: DiskCacheStorage
    ) async -> String? {
        let before = entryFiles(in: storage.directory)
        await storage.store(response, for: key)
        return entryFiles(in: storage.directory).subtracting(before).first
    }
}
