import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files only their owner may read, replaced atomically: how the token store and the disk cache
/// write, since both may hold what a user would not want another account on the machine to read.
enum OwnerOnlyFile {
    /// Replaces the file at `path` with `data`: the bytes go to a new hidden file beside it
    /// (`.<name>.<UUID>.tmp`), created with mode 0600, flushed to the disk and stamped with the
    /// current time, which is then renamed over `path`. On failure nothing but the old file, if
    /// any, is left.
    ///
    /// `open` applies the mode at creation, where `FileManager` would create the file with the
    /// umask's mode and change it afterwards; `O_EXCL` refuses to write through anything already
    /// at the temporary path. Without the flush, a crash soon after the rename could leave the
    /// name on an empty or partly written file on file systems that delay allocation. The
    /// modification date is set explicitly, with sub-second precision, where the file system's
    /// own stamp may be too coarse to order files written in quick succession.
    static func write(_ data: Data, replacing path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        do {
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw posixError() }
            defer { _ = close(descriptor) }
            try writeAll(data, to: descriptor, at: 0)
            guard fsync(descriptor) == 0 else { throw posixError() }
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: temporary)
            guard rename(temporary, path) == 0 else { throw posixError() }
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// A new file in the temporary folder named `prefix` and a random number, open for reading
    /// and writing: mode 0600 from its creation, and `O_EXCL` refuses a file or link already there.
    static func createTemporary(prefix: String) throws -> (descriptor: Int32, path: String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UInt64.random(in: 0...UInt64.max))").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw posixError() }
        return (descriptor, path)
    }

    /// Writes all of `data` at `offset` of the open file `descriptor`.
    static func writeAll(_ data: Data, to descriptor: Int32, at offset: Int64) throws {
        try data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let written = pwrite(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError()
                }
                done += written
            }
        }
    }

    /// Whether `name` is one of the temporary files ``write(_:replacing:)`` makes (left behind
    /// only by a crash).
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// The error `errno` names.
    static func posixError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
