@_spi(Transport) public import NetworkingKit

/// Records the progress values of an upload or a download, for tests.
///
/// ```swift
/// let progress = ProgressRecorder()
/// _ = try await client.download(Request<Data>(path: "/films/up/trailer"), to: destination, progress: progress.handler)
/// #expect(progress.isMonotone(endingAt: 4_194_304))
/// ```
public final class ProgressRecorder: Sendable {
    private let recorded = LockedState<[TransferProgress]>([])

    /// Creates an empty recorder.
    public init() {}

    /// The handler to pass to the transfer.
    public var handler: ProgressHandler {
        { [recorded] progress in recorded.withLock { $0.append(progress) } }
    }

    /// Every value received, in order.
    public var values: [TransferProgress] {
        recorded.withLock { $0 }
    }

    /// Whether values arrived, never decreased, and the last was `total` of `total` bytes.
    public func isMonotone(endingAt total: Int64) -> Bool {
        let values = values
        let completed = values.map(\.completed)
        return !values.isEmpty && zip(completed, completed.dropFirst()).allSatisfy { $0 <= $1 }
            && values.last == TransferProgress(completed: total, total: total)
    }
}
