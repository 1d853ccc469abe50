public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A ``TokenStore`` that keeps the token in a JSON file that only its owner can read (mode 0600).
///
/// For servers, command-line tools and Linux, where there is no Keychain; on Apple platforms
/// prefer `KeychainTokenStore`.
///
/// ```swift
/// let store = FileTokenStore(fileURL: URL(filePath: NSHomeDirectory()).appending(path: ".netkit/token.json"))
/// ```
///
/// Every write goes to a new file, created with mode 0600 from its first byte, and is then renamed
/// over the old one: a crash never leaves half a token behind, and there is no moment when the
/// token sits in a file others can read. A directory the store has to create is made with mode
/// 0700. A file that is not a valid token (truncated, edited by hand, from another program) reads
/// as no token.
public actor FileTokenStore: TokenStore {
    /// The file the token is kept in.
    public nonisolated let fileURL: URL

    /// Creates a store for the token file at `fileURL`; nothing is read or written until asked.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The token in the file; `nil` when there is no file or it does not hold a valid token.
    /// - Throws: The file system's error when the file exists but cannot be read.
    public func token() throws -> AuthToken? {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where [.fileReadNoSuchFile, .fileNoSuchFile].contains(error.code) {
            return nil
        }
        // A corrupt file is no session: failing every call until someone deletes the file by hand
        // would be worse than asking the user to sign in again.
        return try? AuthToken.storageDecoder().decode(AuthToken.self, from: data)
    }

    /// Writes `token` to the file, atomically and readable by the owner only.
    public func setToken(_ token: AuthToken) throws {
        let data = try AuthToken.storageEncoder().encode(token)
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try OwnerOnlyFile.write(data, replacing: fileURL.path)
    }

    /// Deletes the file; a missing file is not an error.
    public func removeToken() throws {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw OwnerOnlyFile.posixError()
        }
    }
}
