public import Foundation

/// A local file that a transfer needed could not be used: a file to upload that is missing or
/// unreadable, or that changed size while it was sent; a download destination that cannot be
/// written.
public struct FileFailure: Sendable, CustomStringConvertible {
    /// What went wrong with the file.
    @nonexhaustive
    public enum Reason: Sendable, Hashable {
        /// No file exists at the path.
        case notFound
        /// The path names a directory or something else that is not a regular file.
        case notAFile
        /// The file exists but could not be opened or read.
        case notReadable
        /// The file's size changed while it was being sent: it had `expected` bytes when the
        /// request was built, and reading found `found` (or more) instead.
        case changedWhileReading(expected: Int64, found: Int64)
        /// The file (or its folder) could not be created, written or moved into place.
        case notWritable
    }

    /// The file.
    public let url: URL
    /// What went wrong.
    public let reason: Reason
    /// The system's own error, when there is one.
    public let underlying: (any Error)?

    /// Creates a file failure.
    public init(url: URL, reason: Reason, underlying: (any Error)? = nil) {
        self.url = url
        self.reason = reason
        self.underlying = underlying
    }

    /// `notReadable: /path/to/file: <underlying>`.
    public var description: String {
        var text = "\(reason): \(url.path)"
        if let underlying { text += ": \(underlying)" }
        return text
    }
}

extension FileFailure.Reason: CustomStringConvertible {
    /// The reason in words: `no such file`, `not a regular file`…
    public var description: String {
        switch self {
        case .notFound: "no such file"
        case .notAFile: "not a regular file"
        case .notReadable: "the file could not be read"
        case .changedWhileReading(let expected, let found):
            "the file changed size while it was sent (\(expected) bytes expected, \(found) found)"
        case .notWritable: "the file could not be written"
        }
    }
}
