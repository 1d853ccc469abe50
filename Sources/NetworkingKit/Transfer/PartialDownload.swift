import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a download in progress, beside its destination: the bytes so far, and for a
/// resumable download a small record of what they are (the URL and the validator that `If-Range`
/// needs), so that a later call can continue where an interrupted one stopped.
///
/// The destination itself is only ever written by one `rename(2)`: it never holds part of a file.
struct PartialDownload {
    /// What a resumable download's bytes are: checked before they are continued.
    struct Record: Codable, Equatable {
        var url: String
        /// The answer's strong validator (``HTTPResponse/strongValidator``): what `If-Range` sends.
        var validator: String
        /// The bytes kept; not stored (the data file's size says it).
        var size: Int64 = 0

        private enum CodingKeys: String, CodingKey {
            case url, validator
        }
    }

    let destination: URL
    /// The bytes so far.
    let dataURL: URL
    /// The record, for resumable downloads.
    let recordURL: URL
    let resumable: Bool

    init(destination: URL, resumable: Bool) {
        self.destination = destination
        self.resumable = resumable
        let folder = destination.deletingLastPathComponent()
        // A fixed name lets a later call find a resumable download; a unique one keeps two
        // downloads to the same destination apart.
        let name =
            resumable
            ? ".\(destination.lastPathComponent).nkdownload"
            : ".\(destination.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).nkdownload"
        self.dataURL = folder.appendingPathComponent(name)
        self.recordURL = folder.appendingPathComponent(name + ".json")
    }

    /// What an earlier call kept, if anything: the request's URL is checked against the answer,
    /// since it is known only once the request is built. Kept bytes that are not a regular file
    /// of this user's (a link planted at their name, say) are removed, never continued.
    func existing() -> Record? {
        guard resumable, let size = Self.ownRegularFileSize(dataURL.path) else {
            if resumable { discard() }
            return nil
        }
        guard size > 0, let data = try? Data(contentsOf: recordURL),
            var record = try? JSONDecoder().decode(Record.self, from: data)
        else { return nil }
        record.size = size
        return record
    }

    /// The size of the file at `path` when it is a regular file (not a link to one) owned by
    /// this process's user; `nil` otherwise.
    private static func ownRegularFileSize(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid() else { return nil }
        return Int64(status.st_size)
    }

    /// Opens the data file for writing: appended to when continuing, made anew otherwise; never
    /// through a link (`O_NOFOLLOW`), and a new file is created where nothing is (`O_EXCL`). A
    /// resumable download records its URL and validator first, or is not kept if it has none.
    func open(appending: Bool, url: String, validator: String?) throws -> FileHandle {
        do {
            if resumable {
                if let validator {
                    let record = try JSONEncoder().encode(Record(url: url, validator: validator))
                    try record.write(to: recordURL, options: .atomic)
                } else {
                    try? FileManager.default.removeItem(at: recordURL)
                }
            }
            var descriptor: Int32 = -1
            if appending, Self.ownRegularFileSize(dataURL.path) != nil {
                descriptor = systemOpen(dataURL.path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
            } else {
                // Whatever is at the name (a stale file, a planted link) goes; the link's target stays as it was.
                _ = unlink(dataURL.path)
                descriptor = systemOpen(dataURL.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            }
            guard descriptor >= 0 else { throw OwnerOnlyFile.posixError() }
            // Held while the download writes, and let go by the system however the process
            // ends: what tells a later call's clean-up that this file is still in use.
            _ = flock(descriptor, LOCK_EX | LOCK_NB)
            return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        } catch {
            throw NetworkError.fileFailed(FileFailure(url: destination, reason: .notWritable, underlying: error))
        }
    }

    /// Moves the complete file into place, replacing any file at the destination in one step.
    func complete(_ handle: FileHandle) throws {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw NetworkError.fileFailed(FileFailure(url: destination, reason: .notWritable, underlying: error))
        }
        guard rename(dataURL.path, destination.path) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            throw NetworkError.fileFailed(FileFailure(url: destination, reason: .notWritable, underlying: POSIXError(code)))
        }
        try? FileManager.default.removeItem(at: recordURL)
    }

    /// After a failure: a resumable download with a record keeps its bytes; anything else goes.
    func abandon(_ handle: FileHandle?) {
        try? handle?.close()
        if resumable, FileManager.default.fileExists(atPath: recordURL.path) { return }
        discard()
    }

    /// Removes what downloads to the same destination left behind when their process was killed
    /// (the uniquely named files of non-resumable downloads; a resumable one's bytes are kept on
    /// purpose). A file another download is still writing is locked, and stays.
    func removeAbandonedFiles() {
        let folder = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".nkdownload") {
            // `.<name>.<number>.nkdownload`: the unique names, not the resumable one.
            let middle = name.dropFirst(prefix.count).dropLast(".nkdownload".count)
            guard !middle.isEmpty, middle.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { continue }
            let path = folder.appendingPathComponent(name).path
            guard Self.ownRegularFileSize(path) != nil else { continue }
            let descriptor = systemOpen(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { _ = unlink(path) }
            _ = close(descriptor)
        }
    }

    /// Removes the bytes and the record.
    func discard() {
        try? FileManager.default.removeItem(at: dataURL)
        try? FileManager.default.removeItem(at: recordURL)
    }
}

/// `open(2)`, named apart from ``PartialDownload/open(appending:url:validator:)``.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}
