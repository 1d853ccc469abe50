import Foundation

/// The bytes of a file as chunks, read as they are asked for, so a file of any size is sent in
/// constant memory. Each iteration opens the file again, so a body made of it can be replayed.
///
/// The reads are plain blocking `read(2)` calls of ``chunkSize`` bytes, from the page cache in the
/// common case; they run on the reading task's thread.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// Big enough that the per-call overhead disappears, small enough to keep memory flat.
    static let chunkSize = 256 * 1024

    let url: URL
    /// The size the file had when the body was made; reading finds the same or fails.
    let length: Int64

    /// The file `url` names, a symbolic link followed (as curl follows one): the file whose
    /// bytes are sent, and whose size every later check reads. The app chose the path, so a link
    /// in it is the app's to follow; nothing a server sends names a file to upload.
    static func target(of url: URL) -> URL {
        url.resolvingSymlinksInPath()
    }

    /// The size of the regular file at `url` (a link followed), or the reason it cannot be sent.
    static func checkedLength(of url: URL) throws -> Int64 {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: target(of: url).path)
        } catch {
            throw NetworkError.fileFailed(FileFailure(url: url, reason: .notFound, underlying: error))
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw NetworkError.fileFailed(FileFailure(url: url, reason: .notAFile))
        }
        // Opening it now turns a permission problem into an error before anything is sent.
        do {
            try FileHandle(forReadingFrom: url).close()
        } catch {
            throw NetworkError.fileFailed(FileFailure(url: url, reason: .notReadable, underlying: error))
        }
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }

    final class AsyncIterator: AsyncIteratorProtocol {
        private let url: URL
        private let length: Int64
        private var handle: FileHandle?
        private var read: Int64 = 0
        private var finished = false

        init(url: URL, length: Int64) {
            self.url = url
            self.length = length
        }

        deinit {
            try? handle?.close()
        }

        func next() async throws -> Data? {
            guard !finished else { return nil }
            try Task.checkCancellation()
            let handle = try openedHandle()
            let wanted = Int(Swift.min(Int64(FileChunks.chunkSize), length - read))
            // At the declared end, one more byte is asked for: finding one means the file grew.
            let chunk = try readChunk(from: handle, count: Swift.max(wanted, 1))
            if wanted == 0 {
                try finish(found: chunk.isEmpty ? read : read + Int64(chunk.count))
                return nil
            }
            guard !chunk.isEmpty else {
                try finish(found: read)
                return nil
            }
            read += Int64(chunk.count)
            return chunk
        }

        private func openedHandle() throws -> FileHandle {
            if let handle { return handle }
            do {
                let opened = try FileHandle(forReadingFrom: url)
                handle = opened
                return opened
            } catch {
                finished = true
                throw NetworkError.fileFailed(FileFailure(url: url, reason: .notReadable, underlying: error))
            }
        }

        private func readChunk(from handle: FileHandle, count: Int) throws -> Data {
            do {
                return try handle.read(upToCount: count) ?? Data()
            } catch {
                finished = true
                throw NetworkError.fileFailed(FileFailure(url: url, reason: .notReadable, underlying: error))
            }
        }

        /// Ends the read, failing it when the file no longer has the size the request declared.
        private func finish(found: Int64) throws {
            finished = true
            try? handle?.close()
            handle = nil
            guard found == length else {
                throw NetworkError.fileFailed(
                    FileFailure(url: url, reason: .changedWhileReading(expected: length, found: found)))
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url, length: length)
    }
}
