import Foundation
import NetworkingKit
import Testing

/// A removal that runs while the tiered storage copies a back entry into the front must win.
@Suite("Tiered storage races")
struct TieredCacheRaceTests {
    /// A back storage whose reads wait at a gate the test opens.
    final class GatedStorage: CacheStorage {
        let inner = MemoryCacheStorage()
        private let state = LockedState<(reading: Bool, gate: CheckedContinuation<Void, Never>?)>((false, nil))

        var isReading: Bool { state.withLock { $0.reading } }

        func open() {
            state.withLock { $0.gate }?.resume()
        }

        func responses(for key: CacheKey) async -> [CachedResponse] {
            let found = inner.responses(for: key)
            await withCheckedContinuation { continuation in
                state.withLock { $0 = (true, continuation) }
            }
            return found
        }

        func store(_ response: CachedResponse, for key: CacheKey) async { inner.store(response, for: key) }
        func remove(_ key: CacheKey, varyValues: [String: String]?) async { inner.remove(key, varyValues: varyValues) }
        func removeAll(url: String) async { inner.removeAll(url: url) }
        func removeAll() async { inner.removeAll() }
    }

    @Test("a purge during a read of the back is not undone by the copy into the front")
    func purgeDuringPromotion() async throws {
        let back = GatedStorage()
        let front = MemoryCacheStorage()
        let tiered = TieredCacheStorage(front: front, back: back)
        let key = CacheKey(url: "https://api.example.com/films")
        back.inner.store(StorageFixture.response("old"), for: key)

        let read = Task { await tiered.responses(for: key) }
        for _ in 0..<1000 where !back.isReading { await Task.yield() }
        #expect(back.isReading)
        await tiered.removeAll(url: key.url)
        back.open()
        _ = await read.value

        #expect(front.responses(for: key).isEmpty, "the purged entry came back into the front")
        #expect(back.inner.responses(for: key).isEmpty)
    }
}
