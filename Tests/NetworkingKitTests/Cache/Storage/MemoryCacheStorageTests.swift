import Foundation
import NetworkingKit
import Testing

@Suite("Cache storage: memory")
struct MemoryCacheStorageTests {
    private typealias Fixture = StorageFixture

    @Test("beyond maxEntries the least recently used entry goes, and a read counts as a use")
    func evictsByCount() {
        let storage = MemoryCacheStorage(maxEntries: 3)
        for name in ["a", "b", "c"] {
            storage.store(Fixture.response(name), for: Fixture.key(name))
        }
        #expect(storage.responses(for: Fixture.key("a")) == [Fixture.response("a")])
        storage.store(Fixture.response("d"), for: Fixture.key("d"))

        #expect(storage.responses(for: Fixture.key("b")).isEmpty)
        for name in ["a", "c", "d"] {
            #expect(storage.responses(for: Fixture.key(name)) == [Fixture.response(name)], "\(name)")
        }
    }

    @Test("beyond maxBytes the least recently used entries go until the rest fit")
    func evictsByBytes() {
        // Each response costs 302 bytes: three fit in 1000, four do not.
        let storage = MemoryCacheStorage(maxBytes: 1000)
        for (index, name) in ["a", "b", "c"].enumerated() {
            storage.store(Fixture.response(size: 300, byte: UInt8(index)), for: Fixture.key(name))
        }
        #expect(!storage.responses(for: Fixture.key("a")).isEmpty)
        storage.store(Fixture.response(size: 300), for: Fixture.key("d"))
        #expect(storage.responses(for: Fixture.key("b")).isEmpty)
        #expect(!storage.responses(for: Fixture.key("a")).isEmpty)
        #expect(!storage.responses(for: Fixture.key("c")).isEmpty)
        #expect(!storage.responses(for: Fixture.key("d")).isEmpty)

        // One large response pushes out as many entries as it needs to, and no more.
        storage.store(Fixture.response(size: 600), for: Fixture.key("e"))
        #expect(!storage.responses(for: Fixture.key("e")).isEmpty)
        let kept = ["a", "c", "d"].filter { !storage.responses(for: Fixture.key($0)).isEmpty }
        #expect(kept.count == 1)
    }

    @Test("a response larger than maxBytes is not stored, and leaves the other entries alone")
    func oversizedIsNotStored() {
        let storage = MemoryCacheStorage(maxBytes: 100)
        storage.store(Fixture.response(size: 50), for: Fixture.key("small"))
        storage.store(Fixture.response(size: 20), for: Fixture.key("big"))
        storage.store(Fixture.response(size: 200), for: Fixture.key("big"))

        #expect(storage.responses(for: Fixture.key("big")).isEmpty)
        #expect(storage.responses(for: Fixture.key("small")) == [Fixture.response(size: 50)])
    }

    @Test("many tasks storing and reading at once leave every entry intact")
    func concurrentAccess() async {
        let storage = MemoryCacheStorage(maxEntries: 1000)
        let keys = (0..<200).map { Fixture.key("item/\($0)", partition: $0.isMultiple(of: 2) ? "" : "p") }
        let consistent = await withTaskGroup(of: Bool.self) { group in
            for (index, key) in keys.enumerated() {
                group.addTask {
                    storage.store(Fixture.response("\(index)"), for: key)
                    // Read our own entry and someone else's, which is absent or whole, never torn.
                    let own = storage.responses(for: key) == [Fixture.response("\(index)")]
                    let otherIndex = (index * 7) % keys.count
                    let other = storage.responses(for: keys[otherIndex])
                    return own && (other.isEmpty || other == [Fixture.response("\(otherIndex)")])
                }
                group.addTask {
                    storage.remove(Fixture.key("never-stored"), varyValues: nil)
                    return true
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(consistent)
        for (index, key) in keys.enumerated() {
            #expect(storage.responses(for: key) == [Fixture.response("\(index)")])
        }
    }

    @Test("under concurrent stores the entry count never exceeds maxEntries")
    func concurrentEvictionStaysBounded() async {
        let storage = MemoryCacheStorage(maxEntries: 10)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask { storage.store(Fixture.response("\(index)"), for: Fixture.key("\(index)")) }
            }
        }
        let kept = (0..<300).filter { !storage.responses(for: Fixture.key("\($0)")).isEmpty }
        #expect(kept.count == 10)
    }
}
