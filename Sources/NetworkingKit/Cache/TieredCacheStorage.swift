/// A ``CacheStorage`` that puts a fast storage in front of a slow one, usually memory in front of
/// disk.
///
/// ```swift
/// let storage = TieredCacheStorage(
///     memory: MemoryCacheStorage(),
///     disk: DiskCacheStorage(directory: FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "http")))
/// ```
///
/// Reads try the front first and fall back to the back, copying what they find into the front so
/// that the next read is fast. Stores and removals go to both, so the back always holds what the
/// front does and survives when the front is evicted or the process ends. Each tier keeps its own
/// bounds; the front is typically the smaller.
public struct TieredCacheStorage<Front: CacheStorage, Back: CacheStorage>: CacheStorage {
    /// The storage read first, and filled from ``back`` on a miss.
    public let front: Front
    /// The storage that holds everything, read when ``front`` misses.
    public let back: Back

    /// Counts removals (started and finished) so that a copy from the back into the front that
    /// raced with one is undone: otherwise a purge or an invalidation could be brought back.
    private let removals = LockedState(Removals())

    private struct Removals {
        var generation: UInt64 = 0
        var active = 0
    }

    /// Creates a storage that reads `front` first and `back` when `front` has nothing.
    public init(front: Front, back: Back) {
        self.front = front
        self.back = back
    }

    /// The stored variants for `key`, most recently stored first; a miss in front that the back
    /// answers is copied into the front.
    public func responses(for key: CacheKey) async -> [CachedResponse] {
        let fromFront = await front.responses(for: key)
        guard fromFront.isEmpty else { return fromFront }
        let before = removals.withLock { $0 }
        let fromBack = await back.responses(for: key)
        await promote(fromBack, for: key, unlessRemovedSince: before)
        return fromBack
    }

    /// Stores `response` for `key` in both tiers.
    ///
    /// When the front has nothing for `key`, it receives every variant the back holds, so that a
    /// front hit never hides variants that only the back has.
    public func store(_ response: CachedResponse, for key: CacheKey) async {
        await back.store(response, for: key)
        if await front.responses(for: key).isEmpty {
            let before = removals.withLock { $0 }
            let fromBack = await back.responses(for: key)
            // The back may refuse the response (too large, unwritable); the front still takes it.
            if fromBack.contains(response) {
                await promote(fromBack, for: key, unlessRemovedSince: before)
                return
            }
        }
        await front.store(response, for: key)
    }

    /// Removes the variant of `key` with these vary values, or every variant when `varyValues` is
    /// `nil`, from both tiers.
    public func remove(_ key: CacheKey, varyValues: [String: String]?) async {
        await removing {
            await front.remove(key, varyValues: varyValues)
            await back.remove(key, varyValues: varyValues)
        }
    }

    /// Removes every entry for `url`, in every partition, from both tiers.
    public func removeAll(url: String) async {
        await removing {
            await front.removeAll(url: url)
            await back.removeAll(url: url)
        }
    }

    /// Removes everything from both tiers.
    public func removeAll() async {
        await removing {
            await front.removeAll()
            await back.removeAll()
        }
    }

    private func removing(_ body: () async -> Void) async {
        removals.withLock {
            $0.generation &+= 1
            $0.active += 1
        }
        await body()
        removals.withLock {
            $0.active -= 1
            $0.generation &+= 1
        }
    }

    /// Stores `variants` in the front, oldest first, so that the front lists them in the same
    /// order; when a removal ran since `before` was read, the copy is dropped again, since the
    /// variants may be what was removed.
    private func promote(_ variants: [CachedResponse], for key: CacheKey, unlessRemovedSince before: Removals) async {
        guard before.active == 0, removals.withLock({ $0.generation }) == before.generation else { return }
        for variant in variants.reversed() {
            await front.store(variant, for: key)
        }
        let after = removals.withLock { $0 }
        if after.generation != before.generation || after.active != 0 {
            await front.remove(key, varyValues: nil)
        }
    }
}

extension TieredCacheStorage where Front == MemoryCacheStorage, Back == DiskCacheStorage {
    /// Creates a storage that keeps responses in `memory` in front of `disk`.
    public init(memory: MemoryCacheStorage, disk: DiskCacheStorage) {
        self.init(front: memory, back: disk)
    }
}
