import Foundation
import NetworkingKit
import Testing

/// The `CacheStorage` contract, checked against every storage the library ships.
@Suite("Cache storage: the contract every storage keeps")
struct CacheStorageConformanceTests {
    private typealias Fixture = StorageFixture

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, disk, tiered
        var testDescription: String { rawValue }
    }

    /// Runs `body` with a fresh storage of `kind`, whose files, if any, are removed afterwards.
    private func withStorage(_ kind: Kind, _ body: (any CacheStorage) async throws -> Void) async throws {
        try await Fixture.withTemporaryDirectory { directory in
            switch kind {
            case .memory: try await body(MemoryCacheStorage())
            case .disk: try await body(DiskCacheStorage(directory: directory))
            case .tiered:
                try await body(TieredCacheStorage(memory: MemoryCacheStorage(), disk: DiskCacheStorage(directory: directory)))
            }
        }
    }

    @Test("an unknown key has no responses", arguments: Kind.allCases)
    func emptyByDefault(kind: Kind) async throws {
        try await withStorage(kind) { storage in
            #expect(await storage.responses(for: Fixture.key("nothing")).isEmpty)
        }
    }

    @Test("variants are kept per vary values, newest first, and replaced by vary values", arguments: Kind.allCases)
    func variantsReplaceByVaryValues(kind: Kind) async throws {
        try await withStorage(kind) { storage in
            let key = Fixture.key("films")
            let english = Fixture.response("hello", vary: ["accept-language": "en"])
            let french = Fixture.response("bonjour", vary: ["accept-language": "fr"])
            let newEnglish = Fixture.response("hello again", vary: ["accept-language": "en"])

            await storage.store(english, for: key)
            await storage.store(french, for: key)
            #expect(await storage.responses(for: key) == [french, english])
            await storage.store(newEnglish, for: key)
            #expect(await storage.responses(for: key) == [newEnglish, french])

            await storage.remove(key, varyValues: ["accept-language": "fr"])
            #expect(await storage.responses(for: key) == [newEnglish])
            await storage.remove(key, varyValues: ["accept-language": "de"])
            #expect(await storage.responses(for: key) == [newEnglish])
            await storage.store(french, for: key)
            await storage.remove(key, varyValues: nil)
            #expect(await storage.responses(for: key).isEmpty)
        }
    }

    @Test("partitions of one URL are separate entries", arguments: Kind.allCases)
    func partitionsAreSeparate(kind: Kind) async throws {
        try await withStorage(kind) { storage in
            await storage.store(Fixture.response("shared"), for: Fixture.key("me"))
            await storage.store(Fixture.response("alice"), for: Fixture.key("me", partition: "alice"))
            #expect(await storage.responses(for: Fixture.key("me")) == [Fixture.response("shared")])
            #expect(await storage.responses(for: Fixture.key("me", partition: "alice")) == [Fixture.response("alice")])
            #expect(await storage.responses(for: Fixture.key("me", partition: "bob")).isEmpty)
        }
    }

    @Test("removeAll(url:) removes the URL in every partition and nothing else", arguments: Kind.allCases)
    func removeAllForURL(kind: Kind) async throws {
        try await withStorage(kind) { storage in
            let keys = [Fixture.key("me"), Fixture.key("me", partition: "alice"), Fixture.key("me", partition: "bob")]
            for key in keys {
                await storage.store(Fixture.response(key.partition), for: key)
            }
            await storage.store(Fixture.response("other"), for: Fixture.key("other"))
            await storage.store(Fixture.response("other"), for: Fixture.key("other", partition: "alice"))

            await storage.removeAll(url: Fixture.key("me").url)
            for key in keys {
                #expect(await storage.responses(for: key).isEmpty, "\(key.partition)")
            }
            #expect(await storage.responses(for: Fixture.key("other")) == [Fixture.response("other")])
            #expect(await storage.responses(for: Fixture.key("other", partition: "alice")) == [Fixture.response("other")])

            await storage.removeAll()
            #expect(await storage.responses(for: Fixture.key("other")).isEmpty)
            #expect(await storage.responses(for: Fixture.key("other", partition: "alice")).isEmpty)
        }
    }

    @Test("concurrent stores, reads and removals stay consistent", arguments: Kind.allCases)
    func concurrentAccess(kind: Kind) async throws {
        try await withStorage(kind) { storage in
            let keys = (0..<40).map { Fixture.key("item/\($0)", partition: $0.isMultiple(of: 2) ? "" : "p") }
            let consistent = await withTaskGroup(of: Bool.self) { group in
                for (index, key) in keys.enumerated() {
                    group.addTask {
                        await storage.store(Fixture.response("\(index)", vary: ["accept": "a"]), for: key)
                        await storage.store(Fixture.response("\(index)", vary: ["accept": "b"]), for: key)
                        let otherIndex = (index * 7) % keys.count
                        let other = await storage.responses(for: keys[otherIndex])
                        // Someone else's entry is absent or has whole variants of its own, never another's.
                        return other.allSatisfy { $0.body == Data("\(otherIndex)".utf8) }
                    }
                    group.addTask {
                        await storage.remove(key, varyValues: ["accept": "c"])
                        return true
                    }
                }
                return await group.reduce(true) { $0 && $1 }
            }
            #expect(consistent)
            for (index, key) in keys.enumerated() {
                let bodies = await storage.responses(for: key).map(\.body)
                #expect(bodies == [Data("\(index)".utf8), Data("\(index)".utf8)], "\(index)")
            }
        }
    }
}
