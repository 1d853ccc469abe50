public import Foundation
public import HTTPTypes

/// A download saved to disk: the answer of ``APIClient/download(_:to:resumable:progress:)``.
public struct DownloadedFile: Sendable {
    /// Where the file is: the destination asked for.
    public let location: URL
    /// The method and URL of the request.
    public let request: RequestSummary
    /// The response head of the exchange that completed the file (a `206` when it was resumed).
    public let response: HTTPResponse
    /// The size of the file.
    public let size: Int64
    /// The bytes a resumed download kept from an earlier, interrupted call; `0` when the whole
    /// file came in this call.
    public let resumedFrom: Int64
    /// From the call's start to the file being in place.
    public let duration: Duration

    /// Creates a downloaded file's description.
    public init(
        location: URL, request: RequestSummary, response: HTTPResponse, size: Int64, resumedFrom: Int64,
        duration: Duration
    ) {
        self.location = location
        self.request = request
        self.response = response
        self.size = size
        self.resumedFrom = resumedFrom
        self.duration = duration
    }
}
