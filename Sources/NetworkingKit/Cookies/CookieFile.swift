import Foundation

/// The file a ``CookieJar`` is kept in: JSON, written owner-only and atomically (``OwnerOnlyFile``)
/// off Swift's cooperative threads, the newest snapshot always last.
actor CookieFile {
    /// The jar's cookies after its change number `generation`.
    struct Snapshot: Sendable {
        let generation: Int
        let cookies: [Cookie]
    }

    private struct Contents: Codable {
        /// Raised when the format changes; a file of another version reads as an empty jar.
        var version: Int
        var cookies: [Cookie]
    }

    private static let version = 1

    nonisolated let url: URL
    nonisolated let keepsSessionCookies: Bool
    private nonisolated let executor = BlockingIOExecutor(label: "NetworkingKit.CookieFile")
    private var written = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(url: URL, keepsSessionCookies: Bool) {
        self.url = url
        self.keepsSessionCookies = keepsSessionCookies
    }

    /// The cookies in the file: none when there is no file or it is not a cookie file of this version.
    /// - Throws: The file system's error when the file exists but cannot be read.
    nonisolated func read() throws -> [Cookie] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where [.fileReadNoSuchFile, .fileNoSuchFile].contains(error.code) {
            return []
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let contents = try? decoder.decode(Contents.self, from: data), contents.version == Self.version else { return [] }
        return contents.cookies
    }

    /// Writes `snapshot`, unless a newer one was written already.
    func write(_ snapshot: Snapshot) throws {
        guard snapshot.generation > written else { return }
        let kept = snapshot.cookies.filter { keepsSessionCookies || $0.isPersistent }
            .sorted { ($0.domain, $0.path, $0.name) < ($1.domain, $1.path, $1.name) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(Contents(version: Self.version, cookies: kept))
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try OwnerOnlyFile.write(data, replacing: url.path)
        written = snapshot.generation
    }
}
