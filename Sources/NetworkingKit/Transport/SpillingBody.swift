import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An answer's bytes between URLSession's delegate, which gets them as fast as the network gives
/// them, and the body's reader, who may be slower (a download written to a slow disk): past
/// `memoryLimit` unread bytes, the rest waits in a temporary file instead of in memory.
///
/// URLSession cannot be slowed down from the delegate here: FoundationNetworking's `suspend()`
/// closes the connection and `resume()` asks again from byte 0, it never produces resume data,
/// and blocking the delegate queue only queues the deliveries up (each measured). So memory is
/// bounded by moving what the reader has not taken yet to disk, in files unlinked as soon as
/// they are created (nothing is left behind, whatever happens to the process): a new one every
/// 64 MiB, each closed once read, and the last emptied whenever the reader catches
/// up, so the disk holds about what is unread.
///
/// One writer (the delegate, on its serial queue) and one reader (the body's iterator).
final class SpillingBody: Sendable {
    /// The bytes kept in memory before the rest goes to the file.
    static let defaultMemoryLimit = 4 << 20
    /// The most read from the file at a time.
    static let fileChunkSize = 256 << 10
    /// The bytes written to one file before the next goes to a new one.
    static let defaultFileSize: Int64 = 64 << 20

    private struct Spill {
        let descriptor: Int32
        /// The file's end: the bytes written so far.
        var written: Int64 = 0
        /// The bytes the reader has taken from it.
        var read: Int64 = 0
    }

    private struct State {
        /// Unread chunks in arrival order, before any bytes of the file.
        var memory: [Data] = []
        var memoryBytes = 0
        /// The files holding unread bytes after those in memory, oldest first: the reader reads the
        /// first, the writer appends to the last.
        var files: [Spill] = []
        /// Whether arriving bytes go to the file: from the first that did not fit in memory until
        /// the reader has caught up with the file.
        var spilling = false
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<Data?, any Error>?
    }

    private enum Step {
        case chunk(Data)
        case readFile(descriptor: Int32, offset: Int64, count: Int)
        case end(Result<Void, any Error>)
        case wait
    }

    private let state = LockedState(State())
    private let memoryLimit: Int
    private let fileSize: Int64
    /// Called when the reader stops before the end (gone, or its task cancelled): the transfer is
    /// cancelled.
    private let onAbandon: @Sendable () -> Void

    init(
        memoryLimit: Int = SpillingBody.defaultMemoryLimit, fileSize: Int64 = SpillingBody.defaultFileSize,
        onAbandon: @escaping @Sendable () -> Void
    ) {
        self.memoryLimit = memoryLimit
        self.fileSize = fileSize
        self.onAbandon = onAbandon
    }

    deinit {
        for file in state.withLock({ $0.files }) { close(file.descriptor) }
    }

    /// The reader's side, to hand out as a body: dropping it before the end abandons the answer.
    var chunks: Chunks {
        Chunks(handle: ReaderHandle(self))
    }

    /// How many unread bytes are held in memory now (for tests).
    var bytesInMemory: Int {
        state.withLock { $0.memoryBytes }
    }

    /// How many files hold unread bytes, or are kept for the next (for tests).
    var fileCount: Int {
        state.withLock { $0.files.count }
    }

    /// Whether the reader waits for bytes (for tests).
    var isWaiting: Bool {
        state.withLock { $0.reader != nil }
    }

    // MARK: - Writing

    /// Adds bytes that arrived; dropped once the answer has ended or been abandoned.
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        enum Action {
            case none
            case hand(CheckedContinuation<Data?, any Error>)
            case failed
        }
        let action = state.withLock { state -> Action in
            guard state.end == nil else { return .none }
            // A waiting reader has taken everything before: these bytes are next.
            if let reader = state.reader {
                state.reader = nil
                return .hand(reader)
            }
            if !state.spilling, state.memory.isEmpty || state.memoryBytes + data.count <= memoryLimit {
                state.memory.append(data)
                state.memoryBytes += data.count
                return .none
            }
            do {
                try Self.write(data, to: &state, fileSize: fileSize)
                state.spilling = true
                return .none
            } catch {
                // No room for them: the transfer stops, and the reader gets what came before, in
                // order, then the error.
                state.end = .failure(error)
                return .failed
            }
        }
        switch action {
        case .none: break
        case .hand(let reader): reader.resume(returning: data)
        case .failed: onAbandon()
        }
    }

    /// Appends `data` at the end of the last file, starting a new one first if needed.
    private static func write(_ data: Data, to state: inout State, fileSize: Int64) throws {
        if state.files.last.map({ $0.written >= fileSize }) ?? true { state.files.append(Spill(descriptor: try makeFile())) }
        guard var spill = state.files.last else { return }
        do {
            try OwnerOnlyFile.writeAll(data, to: spill.descriptor, at: spill.written)
        } catch {
            let failure = FileFailure(url: FileManager.default.temporaryDirectory, reason: .notWritable, underlying: error)
            throw NetworkError.fileFailed(failure)
        }
        spill.written += Int64(data.count)
        state.files[state.files.count - 1] = spill
    }

    /// A new file in the temporary folder, open for reading and writing, already unlinked.
    private static func makeFile() throws -> Int32 {
        do {
            let (descriptor, path) = try OwnerOnlyFile.createTemporary(prefix: "NetworkingKit-answer")
            unlink(path)
            return descriptor
        } catch {
            let folder = FileManager.default.temporaryDirectory
            throw NetworkError.fileFailed(FileFailure(url: folder, reason: .notWritable, underlying: error))
        }
    }

    /// Ends the answer: the reader gets what is left, then the end (or `error`).
    func finish(throwing error: (any Error)? = nil) {
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            // A waiting reader has taken everything: it is told now.
            defer { state.reader = nil }
            return state.reader
        }
        if let error {
            reader?.resume(throwing: error)
        } else {
            reader?.resume(returning: nil)
        }
    }

    // MARK: - Reading

    /// The next chunk, `nil` at the end.
    fileprivate func next() async throws -> Data? {
        // Each turn past the first follows bytes that went to the file while this reader was
        // about to wait: the next step reads them.
        while true {
            if Task.isCancelled {
                abandon()
                throw CancellationError()
            }
            switch nextStep() {
            case .chunk(let data):
                return data
            case .end(.success):
                return nil
            case .end(.failure(let error)):
                throw error
            case .readFile(let descriptor, let offset, let count):
                return try read(count, at: offset, from: descriptor)
            case .wait:
                let data = try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                        let ready = state.withLock { state -> Result<Data?, any Error>? in
                            // Bytes may have come (or the end) since the step was taken.
                            if let data = Self.takeFromMemory(&state) { return .success(data) }
                            if let file = state.files.first, file.read < file.written { return .success(Data()) }
                            if let end = state.end { return end.map { nil } }
                            state.reader = continuation
                            return nil
                        }
                        if let ready { continuation.resume(with: ready) }
                    }
                } onCancel: {
                    abandon()
                }
                if let data, data.isEmpty { continue }
                return data
            }
        }
    }

    private func nextStep() -> Step {
        state.withLock { state -> Step in
            if let data = Self.takeFromMemory(&state) { return .chunk(data) }
            if let file = state.files.first, file.read < file.written {
                let count = Int(min(Int64(Self.fileChunkSize), file.written - file.read))
                return .readFile(descriptor: file.descriptor, offset: file.read, count: count)
            }
            if let end = state.end { return .end(end) }
            return .wait
        }
    }

    /// Once the reader has taken every byte of a file, the file is closed, or, when it is the
    /// last, emptied, and arriving bytes are kept in memory again.
    private static func dropReadFile(_ state: inout State) {
        guard let first = state.files.first, first.read == first.written else { return }
        if state.files.count > 1 {
            close(first.descriptor)
            state.files.removeFirst()
        } else if state.spilling {
            _ = ftruncate(first.descriptor, 0)
            state.files[0].read = 0
            state.files[0].written = 0
            state.spilling = false
        }
    }

    private static func takeFromMemory(_ state: inout State) -> Data? {
        guard !state.memory.isEmpty else { return nil }
        let data = state.memory.removeFirst()
        state.memoryBytes -= data.count
        return data
    }

    /// Reads bytes the writer has finished writing (the file only grows while they are read).
    private func read(_ count: Int, at offset: Int64, from descriptor: Int32) throws -> Data {
        var data = Data(count: count)
        let got = try data.withUnsafeMutableBytes { buffer -> Int in
            var done = 0
            while done < count {
                let result = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    throw NetworkError.fileFailed(
                        FileFailure(
                            url: FileManager.default.temporaryDirectory, reason: .notReadable,
                            underlying: result < 0 ? OwnerOnlyFile.posixError() : POSIXError(.EIO)))
                }
                done += result
            }
            return done
        }
        state.withLock { state in
            if !state.files.isEmpty { state.files[0].read += Int64(got) }
            Self.dropReadFile(&state)
        }
        return data
    }

    /// The reader stopped before the end: nothing more is kept, and the transfer is cancelled.
    fileprivate func abandon() {
        let (reader, wasRunning) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            let wasRunning = state.end == nil
            if wasRunning { state.end = .failure(CancellationError()) }
            state.memory = []
            state.memoryBytes = 0
            defer { state.reader = nil }
            return (state.reader, wasRunning)
        }
        reader?.resume(throwing: CancellationError())
        if wasRunning { onAbandon() }
    }

    // MARK: - The reader's handle

    /// Abandons the answer when the last holder of the body lets go before its end.
    fileprivate final class ReaderHandle: Sendable {
        let body: SpillingBody

        init(_ body: SpillingBody) {
            self.body = body
        }

        deinit {
            body.abandon()
        }
    }

    /// The answer's chunks, read once.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        fileprivate let handle: ReaderHandle

        struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let handle: ReaderHandle

            mutating func next() async throws -> Data? {
                try await handle.body.next()
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(handle: handle)
        }
    }
}
