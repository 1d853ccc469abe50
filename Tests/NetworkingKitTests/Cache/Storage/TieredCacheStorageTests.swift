import Foundation
import NetworkingKit
import Testing

@Suite("Cache storage: memory in front of disk")
struct TieredCacheStorageTests {
    private typealias Fixture = StorageFixture

    @Test("a disk hit is promoted into memory, and memory answers first")
    func promotesDiskHits() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let key = Fixture.key("films")
            let english = Fixture.response("hello", vary: ["accept-language": "en"])
            let french = Fixture.response("bonjour", vary: ["accept-language": "fr"])
            let disk = DiskCacheStorage(directory: directory)
            await disk.store(english, for: key)
            await disk.store(french, for: key)

            let memory = MemoryCacheStorage()
            let storage = TieredCacheStorage(memory: memory, disk: disk)
            #expect(await storage.responses(for: key) == [french, english])
            #expect(memory.responses(for: key) == [french, english])

            // With the disk emptied behind its back, memory still answers.
            await disk.removeAll()
            #expect(await storage.responses(for: key) == [french, english])
        }
    }

    @Test("stores reach both tiers, so entries survive a restart and memory eviction")
    func storesReachBothTiers() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let memory = MemoryCacheStorage(maxEntries: 1)
            let storage = TieredCacheStorage(memory: memory, disk: DiskCacheStorage(directory: directory))
            await storage.store(Fixture.response("a"), for: Fixture.key("a"))
            await storage.store(Fixture.response("b"), for: Fixture.key("b"))

            #expect(memory.responses(for: Fixture.key("a")).isEmpty)
            #expect(await storage.responses(for: Fixture.key("a")) == [Fixture.response("a")])

            let restarted = TieredCacheStorage(memory: MemoryCacheStorage(), disk: DiskCacheStorage(directory: directory))
            #expect(await restarted.responses(for: Fixture.key("a")) == [Fixture.response("a")])
            #expect(await restarted.responses(for: Fixture.key("b")) == [Fixture.response("b")])
        }
    }

    @Test("a new variant stored while memory has none for the key keeps the disk's other variants visible")
    func storeAfterMemoryEvictionKeepsVariants() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let key = Fixture.key("films")
            let english = Fixture.response("hello", vary: ["accept-language": "en"])
            let french = Fixture.response("bonjour", vary: ["accept-language": "fr"])
            let disk = DiskCacheStorage(directory: directory)
            await disk.store(english, for: key)

            let memory = MemoryCacheStorage()
            let storage = TieredCacheStorage(memory: memory, disk: disk)
            await storage.store(french, for: key)
            #expect(memory.responses(for: key) == [french, english])
            #expect(await storage.responses(for: key) == [french, english])
        }
    }

    @Test("removals reach both tiers")
    func removalsReachBothTiers() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let memory = MemoryCacheStorage()
            let disk = DiskCacheStorage(directory: directory)
            let storage = TieredCacheStorage(memory: memory, disk: disk)
            let keys = [Fixture.key("a"), Fixture.key("a", partition: "alice"), Fixture.key("b"), Fixture.key("c")]
            for key in keys {
                await storage.store(Fixture.response(key.url), for: key)
            }

            await storage.remove(Fixture.key("b"), varyValues: nil)
            await storage.removeAll(url: Fixture.key("a").url)
            for key in keys.dropLast() {
                #expect(memory.responses(for: key).isEmpty)
                #expect(await disk.responses(for: key).isEmpty)
            }
            #expect(!memory.responses(for: Fixture.key("c")).isEmpty)

            await storage.removeAll()
            #expect(memory.responses(for: Fixture.key("c")).isEmpty)
            #expect(await disk.responses(for: Fixture.key("c")).isEmpty)
        }
    }
}
