import Foundation
import HTTPTypes

/// A ``CacheStorage`` that keeps responses in memory, bounded by total size and by entry count,
/// evicting the least recently used entry first.
///
/// ```swift
/// let storage = MemoryCacheStorage(maxBytes: 8 * 1024 * 1024, maxEntries: 500)
/// ```
///
/// An entry is a ``CacheKey`` with all its variants; reading or storing any variant counts as a
/// use of the entry. A response's size is its body plus its header fields and vary values, which
/// is what it costs to keep, give or take the bookkeeping. A response larger than `maxBytes` is
/// not kept at all: it would evict everything else and then be evicted by the next store.
///
/// Every method takes a lock for as long as a few dictionary operations, and none of them
/// suspends, so the storage can be shared freely between tasks and used from synchronous code.
public final class MemoryCacheStorage: CacheStorage {
    /// The most bytes the stored responses may take together.
    public let maxBytes: Int
    /// The most entries (keys, each with its variants) the storage keeps.
    public let maxEntries: Int

    private struct State {
        var variants: [CacheKey: [CachedResponse]] = [:]
        var recency = RecencyList<CacheKey>()
    }

    private let state = LockedState(State())

    /// Creates an empty storage.
    /// - Parameters:
    ///   - maxBytes: The most bytes the stored responses may take together; 16 MiB by default.
    ///   - maxEntries: The most entries (keys) kept; 1000 by default.
    public init(maxBytes: Int = 16 * 1024 * 1024, maxEntries: Int = 1000) {
        self.maxBytes = max(0, maxBytes)
        self.maxEntries = max(0, maxEntries)
    }

    /// The stored variants for `key`, most recently stored first; reading counts as a use.
    public func responses(for key: CacheKey) -> [CachedResponse] {
        state.withLock { state in
            guard let variants = state.variants[key] else { return [] }
            state.recency.touch(key)
            return variants
        }
    }

    /// Stores `response` for `key`, replacing the variant with the same vary values, then evicts
    /// least recently used entries until the storage is within its bounds.
    ///
    /// A response larger than ``maxBytes`` is not stored; the variant it would have replaced is
    /// removed all the same, because it is older than an answer the server has since given.
    public func store(_ response: CachedResponse, for key: CacheKey) {
        let size = response.storageSize
        state.withLock { state in
            var variants = state.variants[key] ?? []
            variants.removeAll { $0.varyValues == response.varyValues }
            if size <= maxBytes && maxEntries > 0 {
                variants.insert(response, at: 0)
            }
            // Older variants of the same key give way first, so that the new one always fits.
            var entrySize = variants.reduce(0) { $0 + $1.storageSize }
            while entrySize > maxBytes, let oldest = variants.popLast() {
                entrySize -= oldest.storageSize
            }
            Self.set(variants, size: entrySize, for: key, in: &state)
            evict(&state, keeping: key)
        }
    }

    /// Removes the variant of `key` with these vary values, or every variant when `varyValues` is `nil`.
    public func remove(_ key: CacheKey, varyValues: [String: String]?) {
        state.withLock { state in
            guard var variants = state.variants[key] else { return }
            if let varyValues {
                variants.removeAll { $0.varyValues == varyValues }
            } else {
                variants = []
            }
            let size = variants.reduce(0) { $0 + $1.storageSize }
            // Removing is not a use: what is left of the entry keeps its place in the eviction order.
            Self.set(variants, size: size, for: key, in: &state, asUse: false)
        }
    }

    /// Removes every entry for `url`, in every partition.
    public func removeAll(url: String) {
        state.withLock { state in
            for key in state.variants.keys where key.url == url {
                state.variants[key] = nil
                state.recency.remove(key)
            }
        }
    }

    /// Removes everything.
    public func removeAll() {
        state.withLock { state in
            state = State()
        }
    }

    /// Records `variants` as the entry for `key`, or removes the entry when there are none.
    private static func set(
        _ variants: [CachedResponse], size: Int, for key: CacheKey, in state: inout State, asUse: Bool = true
    ) {
        guard !variants.isEmpty else {
            state.variants[key] = nil
            state.recency.remove(key)
            return
        }
        state.variants[key] = variants
        if asUse || state.recency.cost(of: key) == nil {
            state.recency.insert(key, cost: size)
        } else {
            state.recency.updateCost(of: key, to: size)
        }
    }

    /// Evicts least recently used entries until both bounds hold, never `key`, which was just
    /// stored and is known to fit by itself.
    private func evict(_ state: inout State, keeping key: CacheKey) {
        while state.recency.totalCost > maxBytes || state.recency.count > maxEntries,
            let oldest = state.recency.leastRecentlyUsed, oldest != key
        {
            state.recency.remove(oldest)
            state.variants[oldest] = nil
        }
    }
}

extension CachedResponse {
    /// What keeping this response costs, in bytes: its body, header fields and vary values.
    var storageSize: Int {
        var size = body.count + response.status.reasonPhrase.utf8.count
        for field in response.headerFields {
            size += field.name.rawName.utf8.count + field.value.utf8.count
        }
        for (name, value) in varyValues {
            size += name.utf8.count + value.utf8.count
        }
        return size
    }
}
