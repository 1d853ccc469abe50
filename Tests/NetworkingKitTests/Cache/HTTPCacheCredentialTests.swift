import Foundation
import Logging
import NetworkingKit
import NetworkingKitTesting
import Testing

/// No credential the client sends reaches a cache's storage: not through `Vary`, not through the
/// partition. (`Set-Cookie`, which the server sends, is stored, as RFC 9111 §7.3 allows.)
@Suite("HTTPCache credentials on disk")
struct HTTPCacheCredentialTests {
    /// Sends a GET for `/me` with `headers` through `cache` over `transport`.
    private func send(
        _ cache: HTTPCache, _ transport: StubTransport, headers: [String: String]
    ) async throws -> (response: HTTPResponse, body: String, cacheStatus: CacheStatus?) {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/me", headerFields: fields)
        let context = RequestContext(
            options: RequestOptions(maxResponseBodySize: 1 << 20), requestID: "test",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let answer = try await cache.intercept(request, body: nil, context: context) { request, body, context in
            let (response, body) = try await transport.send(request, body: body, context: context)
            return HTTPAnswer(response, body: body)
        }
        let data = try await answer.body?.collect(upTo: .max) ?? Data()
        return (answer.response, String(decoding: data, as: UTF8.self), answer.cacheStatus)
    }

    /// The bytes of every file under `directory`, hidden ones included.
    private func allBytes(in directory: URL) throws -> [Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    }

    @Test("Vary: Cookie and Vary: Authorization store no credential on disk, and variants still match")
    func varyOnCredentialsStoresNoCredential() async throws {
        try await StorageFixture.withTemporaryDirectory { directory in
            let storage = DiskCacheStorage(directory: directory)
            let clock = ManualDate()
            let cache = HTTPCache(storage: storage, now: { clock.now })
            let cookie = "session=s3cr3t-cookie-value"
            let token = "Bearer t0ken-value"
            // The body tells the variants apart without echoing the credential.
            let transport = StubTransport { request in
                ok(
                    request.header("Cookie") == cookie ? "first" : "second",
                    [
                        "Cache-Control": "public, max-age=100", "Vary": "Cookie, Authorization",
                    ])
            }
            let headers = ["Cookie": cookie, "Authorization": token]
            #expect(try await send(cache, transport, headers: headers).body == "first")
            let hit = try await send(cache, transport, headers: headers)
            #expect(hit.cacheStatus == .hit)
            #expect(hit.body == "first")
            let other = try await send(cache, transport, headers: ["Cookie": "session=other", "Authorization": token])
            #expect(other.cacheStatus == .miss)
            #expect(other.body == "second")
            #expect(transport.requests.count == 2)

            let files = try allBytes(in: directory)
            #expect(!files.isEmpty)
            for bytes in files {
                for secret in ["s3cr3t-cookie-value", "t0ken-value", "session=other"] {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) written to disk")
                }
            }
        }
    }
}
