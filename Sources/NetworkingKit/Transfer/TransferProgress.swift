/// How far an upload or a download has got.
///
/// ```swift
/// let file = try await client.download(Files.report, to: destination) { progress in
///     print("\(progress.completed) of \(progress.total ?? -1) bytes")
/// }
/// ```
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// The bytes transferred so far, including those a resumed download already had.
    public var completed: Int64
    /// The bytes in all, when known (a declared `Content-Length`, a `Content-Range` total, a file's size).
    public var total: Int64?

    /// Creates a progress value.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }

    /// The fraction done, from 0 to 1, when the total is known (1 for an empty transfer).
    public var fraction: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(completed) / Double(total))
    }

    /// Whether every byte has been transferred; unknown (`false`) while the total is unknown.
    public var isFinished: Bool {
        total.map { completed >= $0 } ?? false
    }

    /// `1048576 of 4194304 bytes (25%)`.
    public var description: String {
        guard let total, let fraction else { return "\(completed) bytes" }
        return "\(completed) of \(total) bytes (\(Int(fraction * 100))%)"
    }
}

/// Receives ``TransferProgress`` values: throttled, never decreasing, and always ending with one
/// for the last byte when the transfer succeeds.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void
