import Foundation
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting

extension ManualDate {
    /// The HTTP date `offset` seconds from where every clock starts.
    static func httpDate(_ offset: TimeInterval = 0) -> String { HTTPDate.format(defaultStart + offset) }
}

/// The library's `MemoryCacheStorage`, with the keys it was given remembered, so that tests can
/// look at what was stored (partitions, headers).
final class TestCacheStorage: CacheStorage {
    private let memory: any CacheStorage = MemoryCacheStorage()
    private let keys = LockedState<Set<CacheKey>>([])

    /// Every key that holds a response, with its variants.
    func all() async -> [CacheKey: [CachedResponse]] {
        var result: [CacheKey: [CachedResponse]] = [:]
        for key in keys.withLock({ $0 }) {
            let variants = await memory.responses(for: key)
            if !variants.isEmpty { result[key] = variants }
        }
        return result
    }

    func responses(for key: CacheKey) async -> [CachedResponse] { await memory.responses(for: key) }
    func store(_ response: CachedResponse, for key: CacheKey) async {
        keys.withLock { _ = $0.insert(key) }
        await memory.store(response, for: key)
    }
    func remove(_ key: CacheKey, varyValues: [String: String]?) async { await memory.remove(key, varyValues: varyValues) }
    func removeAll(url: String) async { await memory.removeAll(url: url) }
    func removeAll() async { await memory.removeAll() }
}

/// A cache over a stub transport and a hand-moved clock.
struct CacheHarness {
    let clock = ManualDate()
    let storage = TestCacheStorage()
    let transport: StubTransport
    let cache: HTTPCache

    init(_ handler: @escaping StubTransport.Handler) {
        transport = StubTransport(handler)
        let clock = self.clock
        cache = HTTPCache(storage: storage, now: { clock.now })
    }

    /// Sends a request through the cache and returns the response and its body as text.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method = .get, _ path: String = "/films", headers: [String: String] = [:],
        policy: CachePolicy = .useProtocolCachePolicy, maxResponseBodySize: Int = 1 << 20,
        declaredCredentials: Set<HTTPField.Name> = []
    ) async throws -> (response: HTTPResponse, body: String, cacheStatus: CacheStatus?) {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let request = HTTPRequest(method: method, scheme: "https", authority: "api.example.com", path: path, headerFields: fields)
        var options = RequestOptions(maxResponseBodySize: maxResponseBodySize)
        options.cachePolicy = policy
        // As the client resolves it: the client's declared credential headers in the redirect policy.
        options.redirectPolicy = RedirectPolicy(sensitiveHeaders: declaredCredentials)
        let context = RequestContext(
            options: options, requestID: "test", logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let transport = self.transport
        let answer = try await cache.intercept(request, body: nil, context: context) { request, body, context in
            let (response, body) = try await transport.send(request, body: body, context: context)
            return HTTPAnswer(response, body: body)
        }
        let data = try await answer.body?.collect(upTo: .max) ?? Data()
        return (answer.response, String(decoding: data, as: UTF8.self), answer.cacheStatus)
    }

    /// How many requests reached the network.
    var networkCount: Int { transport.requests.count }
}

/// A handler that answers the n-th request with the n-th response, repeating the last.
func scripted(_ responses: [StubResponse]) -> StubTransport.Handler {
    let index = LockedState(0)
    return { _ in
        let position = index.withLock { index in
            defer { index += 1 }
            return index
        }
        return responses[min(position, responses.count - 1)]
    }
}

extension HTTPResponse {
    /// A header's value by name.
    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headerFields[$0] } }
}

/// An error a transport throws when the network is down.
struct NetworkDown: Error {}

/// A 200 with a text body and `headers`.
func ok(_ body: String = "films", _ headers: [String: String] = [:]) -> StubResponse {
    StubResponse(status: .ok, headers: headers, body: HTTPBody(body))
}
