public import Foundation

/// A transfer running in a task of its own, whose progress is an `AsyncSequence`: the form of
/// ``APIClient/downloadTask(_:to:resumable:)`` and ``APIClient/uploadTask(_:to:as:)`` for code
/// that reads progress in a loop rather than in a callback.
///
/// ```swift
/// let transfer = client.downloadTask(Files.report, to: reportURL)
/// for await progress in transfer.progress {
///     bar.fraction = progress.fraction ?? 0
/// }
/// let file = try await transfer.value
/// ```
///
/// ``progress`` is throttled as the callback is (about every 1% of a known size, at least every
/// 64 KiB; every MiB when the size is unknown), counts from the bytes already there (a resumed
/// download's), ends with the whole size on success, and finishes when the transfer does, whether
/// it succeeded, failed or was cancelled. A reader slower than the transfer sees the latest value,
/// never a backlog. Stopping the loop early does not stop the transfer; ``cancel()`` does, and so
/// does cancelling the task that awaits ``value``. ``progress`` has one reader: iterate it in one
/// place (two loops over it at once is a programming error that stops the program).
public struct ProgressTask<Value: Sendable>: Sendable {
    /// How far the transfer has got; it ends when the transfer does.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Value, any Error>

    /// Starts `operation` in a task, handing it a progress handler that feeds ``progress``.
    init(_ operation: @escaping @Sendable (_ progress: @escaping ProgressHandler) async throws -> Value) {
        let (progress, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
        self.progress = progress
        task = Task {
            defer { continuation.finish() }
            return try await operation { continuation.yield($0) }
        }
    }

    /// The transfer's result: what the `async` form of the call returns, or the error it throws.
    public var value: Value {
        get async throws {
            // The transfer runs in a task of its own: a cancelled caller passes its cancellation on.
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Cancels the transfer; ``value`` then throws ``NetworkError/cancelled`` (a resumable download
    /// keeps what it has).
    public func cancel() {
        task.cancel()
    }
}

extension APIClient {
    /// Starts ``download(_:to:resumable:progress:)`` in a task of its own, with its progress as an
    /// `AsyncSequence`; see ``ProgressTask``.
    public func downloadTask(
        _ endpoint: some APIEndpoint, to destination: URL, resumable: Bool = false
    ) -> ProgressTask<DownloadedFile> {
        ProgressTask { progress in
            try await download(endpoint, to: destination, resumable: resumable, progress: progress)
        }
    }

    /// Starts ``upload(_:to:as:progress:)`` in a task of its own, with its progress as an
    /// `AsyncSequence`; see ``ProgressTask``.
    public func uploadTask<T: Decodable & Sendable>(
        _ body: RequestBody, to endpoint: some APIEndpoint, as type: T.Type = T.self
    ) -> ProgressTask<Response<T>> {
        ProgressTask { progress in
            try await upload(body, to: endpoint, as: type, progress: progress)
        }
    }
}
