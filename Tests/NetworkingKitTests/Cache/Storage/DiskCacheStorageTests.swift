import Foundation
import NetworkingKit
import Testing

@Suite("Cache storage: disk")
struct DiskCacheStorageTests {
    private typealias Fixture = StorageFixture

    private func permissions(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    @Test("entries written by one instance are read, exactly, by the next on the same directory")
    func survivesRestart() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let key = Fixture.key("films/1", partition: "alice")
            let english = Fixture.response("hello", vary: ["accept-language": "en"])
            let binary = CachedResponse(
                response: HTTPResponse(status: .nonAuthoritativeInformation, headerFields: [.eTag: #""v1""#]),
                body: Data((0...255).map { UInt8($0) }), requestTime: Date(), responseTime: Date(),
                varyValues: ["accept-language": "fr", "accept": "image/png"])
            let first = DiskCacheStorage(directory: directory)
            await first.store(english, for: key)
            await first.store(binary, for: key)
            await first.store(Fixture.response(size: 0), for: Fixture.key("empty"))

            let second = DiskCacheStorage(directory: directory)
            #expect(await second.responses(for: key) == [binary, english])
            #expect(await second.responses(for: Fixture.key("empty")) == [Fixture.response(size: 0)])
            #expect(await second.responses(for: Fixture.key("films/1")).isEmpty)
        }
    }

    @Test("a response read back (from disk, or decoded) keeps what its fields say: its freshness is the same")
    func fieldsReadBack() async throws {
        let fields: HTTPFields = [
            .cacheControl: "max-age=60, must-revalidate", .date: "Thu, 26 Nov 2026 16:00:00 GMT", .eTag: #""v1""#,
        ]
        let entry = CachedResponse(
            response: HTTPResponse(status: .ok, headerFields: fields), body: Data("a".utf8), requestTime: Date(),
            responseTime: Date())
        #expect(try JSONDecoder().decode(CachedResponse.self, from: JSONEncoder().encode(entry)) == entry)
        try await Fixture.withTemporaryDirectory { directory in
            await DiskCacheStorage(directory: directory).store(entry, for: Fixture.key("films/1"))
            #expect(await DiskCacheStorage(directory: directory).responses(for: Fixture.key("films/1")) == [entry])
        }
    }

    @Test("file I/O runs on the storage's own queue, off the cooperative pool; removeAll(url:) uses the index")
    func ownQueue() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let storage = DiskCacheStorage(directory: directory)
            #expect(await storage.runsOnItsOwnQueue())
            let alice = Fixture.key("films/1", partition: "alice")
            let bob = Fixture.key("films/1", partition: "bob")
            let other = Fixture.key("films/2")
            for key in [alice, bob, other] { await storage.store(Fixture.response("x"), for: key) }
            await storage.removeAll(url: alice.url)
            #expect(await storage.responses(for: alice).isEmpty)
            #expect(await storage.responses(for: bob).isEmpty)
            #expect(await storage.responses(for: other).count == 1)
            // A fresh instance lists the directory: the files are gone, not only forgotten.
            #expect(await DiskCacheStorage(directory: directory).responses(for: bob).isEmpty)
        }
    }

    @Test("the directory is created 0700 and the files 0600, with no URL or partition in their names")
    func permissionsAndNames() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let nested = directory.appendingPathComponent("a/b", isDirectory: true)
            let storage = DiskCacheStorage(directory: nested)
            // Hex-only path and partition, so that a file name made of hex digits could still
            // be caught holding them.
            let partition = "deadbeefcafe0123"
            let key = Fixture.key("abcdef", partition: partition)
            let name = try #require(await Fixture.storeAndFindFile(Fixture.response(), for: key, in: storage))

            #expect(try permissions(of: nested) == 0o700)
            #expect(try permissions(of: nested.appendingPathComponent(name)) == 0o600)
            #expect(!name.contains(partition) && !name.contains("abcdef") && !name.contains("example"))
            // Only the entry file: the temporary file was renamed, not left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: nested.path)
            #expect(names == [name])
        }
    }

    @Test("a corrupt, truncated or other-version file reads as absent and is deleted")
    func corruptFileIsDropped() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let key = Fixture.key("films")
            let name = try #require(
                await Fixture.storeAndFindFile(Fixture.response(), for: key, in: DiskCacheStorage(directory: directory)))
            let file = directory.appendingPathComponent(name)
            let valid = try Data(contentsOf: file)
            var otherVersion = valid
            otherVersion[11] = 1
            let damaged: [(String, Data)] = [
                ("garbage", Data("not a cache entry at all".utf8)),
                ("empty", Data()),
                ("truncated", valid.prefix(valid.count - 3)),
                ("padded", valid + Data([0])),
                ("header only", valid.prefix(16)),
                ("other version", otherVersion),
            ]
            for (label, bytes) in damaged {
                try bytes.write(to: file)
                // A fresh instance, and one that already follows the file, both drop it.
                #expect(await DiskCacheStorage(directory: directory).responses(for: key).isEmpty, "\(label)")
                #expect(!FileManager.default.fileExists(atPath: file.path), "\(label)")

                let storage = DiskCacheStorage(directory: directory)
                await storage.store(Fixture.response(), for: key)
                try bytes.write(to: file)
                #expect(await storage.responses(for: key).isEmpty, "\(label)")
                #expect(!FileManager.default.fileExists(atPath: file.path), "\(label)")
                // The next store replaces it as if it had never been there.
                await storage.store(Fixture.response(), for: key)
                #expect(await storage.responses(for: key) == [Fixture.response()], "\(label)")
            }
        }
    }

    @Test("a file holding another key's entry is never served for this key, and is deleted")
    func keyMismatchIsDropped() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let storage = DiskCacheStorage(directory: directory)
            let alice = Fixture.key("me", partition: "alice")
            let bob = Fixture.key("me", partition: "bob")
            let aliceFile = try #require(await Fixture.storeAndFindFile(Fixture.response("alice"), for: alice, in: storage))
            let bobFile = try #require(await Fixture.storeAndFindFile(Fixture.response("bob"), for: bob, in: storage))

            // As if Bob's name collided with Alice's: his file now holds her entry.
            let aliceBytes = try Data(contentsOf: directory.appendingPathComponent(aliceFile))
            try aliceBytes.write(to: directory.appendingPathComponent(bobFile))

            #expect(await storage.responses(for: bob).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(bobFile).path))
            #expect(await storage.responses(for: alice) == [Fixture.response("alice")])
        }
    }

    @Test("a temporary file left by a crash is never served, and an abandoned one is deleted")
    func strayTemporaryFiles() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let key = Fixture.key("films")
            let name = try #require(
                await Fixture.storeAndFindFile(Fixture.response(), for: key, in: DiskCacheStorage(directory: directory)))
            // Turn the entry into what a crash between write and rename leaves: a complete
            // temporary file and no entry.
            let file = directory.appendingPathComponent(name)
            let abandoned = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
            let inProgress = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
            try FileManager.default.copyItem(at: file, to: inProgress)
            try FileManager.default.moveItem(at: file, to: abandoned)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: abandoned.path)

            let storage = DiskCacheStorage(directory: directory)
            #expect(await storage.responses(for: key).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: abandoned.path))
            // A fresh one may be another process's write in progress: left alone, still not served.
            #expect(FileManager.default.fileExists(atPath: inProgress.path))
            #expect(await storage.responses(for: key).isEmpty)

            await storage.removeAll()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("beyond maxBytes the least recently used files are deleted, in this launch and the next")
    func evictsLeastRecentlyUsed() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            // Measure one file, then allow exactly three.
            let probe = DiskCacheStorage(directory: directory)
            let probeName = try #require(
                await Fixture.storeAndFindFile(Fixture.response(size: 1000), for: Fixture.key("a"), in: probe))
            let fileSize = try #require(
                FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(probeName).path)[.size] as? Int)
            await probe.removeAll()

            let maxBytes = 3 * fileSize + fileSize / 2
            let storage = DiskCacheStorage(directory: directory, maxBytes: maxBytes)
            var files: [String: String] = [:]
            for name in ["a", "b", "c"] {
                files[name] = await Fixture.storeAndFindFile(Fixture.response(size: 1000), for: Fixture.key(name), in: storage)
            }
            #expect(!(await storage.responses(for: Fixture.key("a"))).isEmpty)

            // The next launch knows only the files' dates: b, c, a. The read of a counts.
            let restarted = DiskCacheStorage(directory: directory, maxBytes: maxBytes)
            files["d"] = await Fixture.storeAndFindFile(Fixture.response(size: 1000), for: Fixture.key("d"), in: restarted)
            #expect(Fixture.entryFiles(in: directory) == Set(["a", "c", "d"].compactMap { files[$0] }))

            // Within a launch too: reading c leaves a as the oldest.
            #expect(!(await restarted.responses(for: Fixture.key("c"))).isEmpty)
            files["e"] = await Fixture.storeAndFindFile(Fixture.response(size: 1000), for: Fixture.key("e"), in: restarted)
            #expect(Fixture.entryFiles(in: directory) == Set(["c", "d", "e"].compactMap { files[$0] }))
            #expect(await restarted.responses(for: Fixture.key("a")).isEmpty)
            #expect(files.count == 5)
        }
    }

    @Test("an entry larger than maxBytes is not written, and replaces nothing it would have replaced")
    func oversizedIsNotStored() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let storage = DiskCacheStorage(directory: directory, maxBytes: 2000)
            await storage.store(Fixture.response(size: 100), for: Fixture.key("small"))
            await storage.store(Fixture.response(size: 100), for: Fixture.key("big"))
            await storage.store(Fixture.response(size: 5000), for: Fixture.key("big"))

            #expect(await storage.responses(for: Fixture.key("big")).isEmpty)
            #expect(await storage.responses(for: Fixture.key("small")) == [Fixture.response(size: 100)])
            #expect(Fixture.entryFiles(in: directory).count == 1)
        }
    }

    @Test("a directory that cannot be created or read behaves as an empty storage")
    func unusableDirectory() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A regular file where the directory, or its parent, should be: no permission bits
            // stop root, but nobody can create a directory inside a file.
            let file = directory.appendingPathComponent("not-a-directory")
            try Data("x".utf8).write(to: file)
            for path in [file, file.appendingPathComponent("cache", isDirectory: true)] {
                let storage = DiskCacheStorage(directory: path)
                let key = Fixture.key("films")
                #expect(await storage.responses(for: key).isEmpty)
                await storage.store(Fixture.response(), for: key)
                #expect(await storage.responses(for: key).isEmpty)
                await storage.remove(key, varyValues: [:])
                await storage.removeAll(url: key.url)
                await storage.removeAll()
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "x")
        }
    }
}
