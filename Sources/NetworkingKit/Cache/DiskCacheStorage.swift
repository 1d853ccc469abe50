import Crypto
public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A ``CacheStorage`` that keeps responses in files in a directory you choose, so that they
/// survive a restart, bounded by total size and evicting the least recently used entry first.
///
/// ```swift
/// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "com.example.app/http")
/// let storage = DiskCacheStorage(directory: caches, maxBytes: 50 * 1024 * 1024)
/// ```
///
/// Each ``CacheKey`` has one file holding all its variants, named
/// `<SHA-256 of the URL>-<SHA-256 of the partition>`: no URL or credential partition appears in a
/// file name, and removing a URL in every partition only lists the directory. The file also holds
/// the key itself, which is checked on every read, so a file can never answer for another key.
///
/// Writes go to a new file in the same directory, flushed to the disk, then renamed over the old
/// one: a crash or a full disk leaves either the old entry or the new one, never half of one.
/// Temporary files a crash left behind are never read, and are deleted the next time an instance
/// lists the directory. A file that cannot be read or decoded, or that holds another key, is
/// deleted and reads as absent. A directory that cannot be created, read or written makes the
/// storage behave as an empty one; nothing is ever thrown.
///
/// Recency is the files' modification dates, updated on every read, so the eviction order carries
/// over to the next launch; the directory is listed once, on first use, and followed in memory
/// afterwards. The directory is created with mode 0700 and the files with mode 0600, as responses
/// may be private. Use one instance per directory: two instances evict without knowing of each
/// other's entries until they read them.
///
/// The storage is an actor; its file operations are synchronous system calls, made one at a time
/// on a dispatch queue of its own, so that a slow disk or an `fsync` never holds one of the few
/// threads Swift's tasks share. ``removeAll(url:)`` finds the files to delete in the storage's
/// index, without listing the directory.
public actor DiskCacheStorage: CacheStorage {
    private nonisolated let executor = BlockingIOExecutor(label: "NetworkingKit.DiskCacheStorage")

    /// Runs the storage's methods on its own queue (see above).
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Whether the storage's methods run on its own queue; for tests.
    package func runsOnItsOwnQueue() -> Bool {
        executor.isCurrent
    }

    /// The directory the files are kept in.
    public nonisolated let directory: URL
    /// The most bytes the files may take together.
    public nonisolated let maxBytes: Int

    /// Entry file names by recency, with their sizes; `nil` until the directory is first listed.
    private var index: RecencyList<String>?

    /// How old a temporary file must be before it counts as left behind by a crash rather than
    /// being written by another process right now.
    static let abandonedTemporaryFileAge: TimeInterval = 60

    /// Creates a storage over `directory`; nothing is read or written until first asked.
    /// - Parameters:
    ///   - directory: Where the files go; created, with mode 0700, on the first store.
    ///   - maxBytes: The most bytes the files may take together; 100 MiB by default.
    public init(directory: URL, maxBytes: Int = 100 * 1024 * 1024) {
        self.directory = directory
        self.maxBytes = max(0, maxBytes)
    }

    /// The stored variants for `key`, most recently stored first; reading counts as a use.
    public func responses(for key: CacheKey) -> [CachedResponse] {
        let name = Self.fileName(for: key)
        guard let entry = read(name, expecting: key) else { return [] }
        // Also the recency the next launch will see; a failure only costs eviction order.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path(of: name))
        index?.touch(name)
        return entry.variants
    }

    /// Stores `response` for `key`, replacing the variant with the same vary values, then deletes
    /// least recently used files until the directory is within ``maxBytes``.
    ///
    /// When the file would be larger than ``maxBytes``, older variants of the key are dropped
    /// first; when the response alone is too large, or the write fails, the key's file is removed
    /// instead, since what it held is older than the answer that was just received.
    public func store(_ response: CachedResponse, for key: CacheKey) {
        let name = Self.fileName(for: key)
        var variants = read(name, expecting: key)?.variants ?? []
        variants.removeAll { $0.varyValues == response.varyValues }
        variants.insert(response, at: 0)
        save(CacheEntryFile(key: key, variants: variants), as: name)
    }

    /// Removes the variant of `key` with these vary values, or every variant when `varyValues` is `nil`.
    public func remove(_ key: CacheKey, varyValues: [String: String]?) {
        let name = Self.fileName(for: key)
        guard let varyValues else {
            delete(name)
            return
        }
        guard var entry = read(name, expecting: key) else { return }
        let count = entry.variants.count
        entry.variants.removeAll { $0.varyValues == varyValues }
        if entry.variants.isEmpty {
            delete(name)
        } else if entry.variants.count != count {
            save(entry, as: name)
        }
    }

    /// Removes every entry for `url`, in every partition.
    public func removeAll(url: String) {
        loadIndexIfNeeded()
        let prefix = LowercaseHex.sha256(of: url) + "-"
        for name in index?.keys ?? [] where name.hasPrefix(prefix) {
            delete(name)
        }
    }

    /// Removes everything the storage wrote; other files in the directory are left alone.
    public func removeAll() {
        for name in directoryContents() where Self.isEntryFileName(name) || OwnerOnlyFile.isTemporary(name) {
            _ = unlink(path(of: name))
        }
        index = RecencyList()
    }

    // MARK: Files

    /// The entry in file `name` if it holds `key`; deletes a file that cannot be read or decoded
    /// or that holds another key, so that it is refetched instead of failing on every read.
    private func read(_ name: String, expecting key: CacheKey) -> CacheEntryFile? {
        loadIndexIfNeeded()
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path(of: name)))
        } catch let error as CocoaError where [.fileReadNoSuchFile, .fileNoSuchFile].contains(error.code) {
            index?.remove(name)
            return nil
        } catch {
            delete(name)
            return nil
        }
        guard let entry = CacheEntryFile(decoding: data), entry.key == key else {
            delete(name)
            return nil
        }
        // Written by another instance since the directory was listed: follow it from now on.
        if index?.cost(of: name) == nil {
            index?.insert(name, cost: data.count)
        }
        return entry
    }

    /// Replaces file `name` with `entry`, atomically, and evicts until within bounds.
    private func save(_ entry: CacheEntryFile, as name: String) {
        loadIndexIfNeeded()
        var entry = entry
        var data: Data
        repeat {
            guard let encoded = try? entry.encoded() else {
                delete(name)
                return
            }
            data = encoded
            if data.count <= maxBytes { break }
            // Too large even alone: keep nothing rather than evict everything else for it.
            guard entry.variants.count > 1 else {
                delete(name)
                return
            }
            entry.variants.removeLast()
        } while true

        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try OwnerOnlyFile.write(data, replacing: path(of: name))
        } catch {
            delete(name)
            return
        }
        index?.insert(name, cost: data.count)
        evict(keeping: name)
    }

    /// Deletes file `name`, if any, and forgets it.
    private func delete(_ name: String) {
        _ = unlink(path(of: name))
        index?.remove(name)
    }

    /// Deletes least recently used files until within ``maxBytes``, never `name`, which was just
    /// written and is known to fit by itself.
    private func evict(keeping name: String) {
        while let index, index.totalCost > maxBytes, let oldest = index.leastRecentlyUsed, oldest != name {
            delete(oldest)
        }
    }

    /// Lists the directory once, ordering its entry files by modification date, and deletes the
    /// temporary files a crash left behind.
    private func loadIndexIfNeeded() {
        guard index == nil else { return }
        var list = RecencyList<String>()
        defer { index = list }
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [])
        else { return }  // Missing or unreadable: empty until a store creates it.

        var entries: [(name: String, date: Date, size: Int)] = []
        let now = Date()
        for url in urls {
            let name = url.lastPathComponent
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            let date = values.contentModificationDate ?? .distantPast
            if Self.isEntryFileName(name) {
                entries.append((name, date, values.fileSize ?? 0))
            } else if OwnerOnlyFile.isTemporary(name), now.timeIntervalSince(date) > Self.abandonedTemporaryFileAge {
                _ = unlink(path(of: name))
            }
        }
        // Oldest first, so the last inserted is the most recently used; names break ties.
        entries.sort { ($0.date, $0.name) < ($1.date, $1.name) }
        for entry in entries {
            list.insert(entry.name, cost: entry.size)
        }
    }

    private func directoryContents() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func path(of name: String) -> String {
        directory.appendingPathComponent(name, isDirectory: false).path
    }

    // MARK: Names

    /// `<SHA-256 of the URL>-<SHA-256 of the partition>`, both in lowercase hexadecimal.
    static func fileName(for key: CacheKey) -> String {
        LowercaseHex.sha256(of: key.url) + "-" + LowercaseHex.sha256(of: key.partition)
    }

    private static func isEntryFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let digestLength = SHA256.byteCount * 2
        guard bytes.count == digestLength * 2 + 1, bytes[digestLength] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { offset, byte in
            offset == digestLength || byte.isASCIIDigit
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}
