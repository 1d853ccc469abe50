import Foundation
@_spi(Transport) import NetworkingKit
import Testing

/// A removal that runs while the tiered storage copies a back entry into the front must win.
@Suite("Tiered storage races", .timeLimit(.minutes(5)))
struct TieredCacheRaceTests {
    /// A back storage whose reads wait at a gate the test opens.
    final class GatedStorage: CacheStorage {
        let inner = MemoryCacheStorage()
        private struct State {
            var reading = false
            var gate: CheckedContinuation<Void, Never>?
            var readingWaiter: CheckedContinuation<Void, Never>?
        }

        private let state = LockedState(State())

        var isReading: Bool { state.withLock { $0.reading } }

        /// Returns once a read has reached the gate: an event, where a loop of yields was a guess.
        func waitUntilReading() async {
            await withCheckedContinuation { continuation in
                let reading = state.withLock { state in
                    if !state.reading { state.readingWaiter = continuation }
                    return state.reading
                }
                if reading { continuation.resume() }
            }
        }

        func open() {
            state.withLock { $0.gate }?.resume()
        }

        func responses(for key: CacheKey) async -> [CachedResponse] {
            let found = inner.responses(for: key)
            await withCheckedContinuation { continuation in
                let waiter = state.withLock { state in
                    state.reading = true
                    state.gate = continuation
                    defer { state.readingWaiter = nil }
                    return state.readingWaiter
                }
                waiter?.resume()
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
        await back.waitUntilReading()
        #expect(back.isReading)
        await tiered.removeAll(url: key.url)
        back.open()
        _ = await read.value

        #expect(front.responses(for: key).isEmpty, "the purged entry came back into the front")
        #expect(back.inner.responses(for: key).isEmpty)
    }
}
