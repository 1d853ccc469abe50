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
        /// A strong `ETag`, or else a `Last-Modified` date: what `If-Range` sends.
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
    /// since it is known only once the request is built.
    func existing() -> Record? {
        guard resumable,
            let data = try? Data(contentsOf: recordURL),
            var record = try? JSONDecoder().decode(Record.self, from: data),
            let attributes = try? FileManager.default.attributesOfItem(atPath: dataURL.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0
        else { return nil }
        record.size = size
        return record
    }

    /// The validator `If-Range` can use from a response: a strong `ETag`, else `Last-Modified`
    /// (RFC 9110 §13.1.5: a weak tag cannot say two bodies are byte for byte the same).
    static func validator(of response: HTTPResponse) -> String? {
        if let etag = response.headerFields[.eTag], !etag.hasPrefix("W/"), etag.hasPrefix("\"") { return etag }
        return response.headerFields[.lastModified]
    }

    /// Opens the data file for writing: appended to when continuing, emptied otherwise. A
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
            if !appending || !FileManager.default.fileExists(atPath: dataURL.path) {
                guard FileManager.default.createFile(atPath: dataURL.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown)
                }
            }
            let handle = try FileHandle(forWritingTo: dataURL)
            if appending {
                try handle.seekToEnd()
            } else {
                try handle.truncate(atOffset: 0)
            }
            return handle
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

    /// Removes the bytes and the record.
    func discard() {
        try? FileManager.default.removeItem(at: dataURL)
        try? FileManager.default.removeItem(at: recordURL)
    }
}
