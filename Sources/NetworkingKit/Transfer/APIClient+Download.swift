public import Foundation
import HTTPTypes

extension APIClient {
    /// Downloads an endpoint's body to a file, in constant memory, and returns once the complete
    /// file is at `destination`.
    ///
    /// ```swift
    /// let file = try await client.download(Files.report(id: 7), to: reportURL, resumable: true) { progress in
    ///     print(progress)  // 1048576 of 4194304 bytes (25%)
    /// }
    /// ```
    ///
    /// The body is written to a hidden temporary file in the destination's folder, checked
    /// against the length the server declared, and moved into place in one step, replacing any
    /// file there: the destination never holds part of a file. The call goes through the whole
    /// middleware chain (authentication and refresh, retries of the request, redirects, logging);
    /// the request's timeout bounds the wait for the response head, and then each wait for the
    /// next part of the body (a server that stalls midway fails with ``NetworkError/timeout(_:)``).
    ///
    /// With `resumable`, an interrupted download (a dropped connection, a cancelled task) keeps
    /// its partial file and a later call for the same URL and destination asks only for the rest
    /// (`Range` with `If-Range`, so a file that changed on the server is sent whole). A `200`
    /// instead of a `206`, a `416`, or a `206` for another version or without the kept bytes'
    /// validator starts over. A response with no strong validator (a strong `ETag`, or a
    /// `Last-Modified` a minute before its `Date`) cannot be resumed safely and is not kept.
    /// Kept bytes are continued only from a regular file of the user's: a link planted at their
    /// name is removed, never followed. The hidden file of a download whose process was killed
    /// (SIGTERM, SIGKILL) is removed by the next download to the same destination. A download
    /// asks for `Accept-Encoding: identity`, so that the file holds the bytes the server counts
    /// ranges in. A server that compresses the file anyway has it decoded, never kept to resume,
    /// and the decoded bytes are limited to the endpoint's ``RequestOptions/maxResponseBodySize``,
    /// or when it sets none to the client's (``LiveAPIClient/Configuration/maxResponseBodySize``,
    /// 32 MiB by default): a few hundred kilobytes of gzip could otherwise write gigabytes. An
    /// endpoint that expects such a server and a larger file sets its own limit (`Int.max` for none).
    /// - Parameters:
    ///   - endpoint: The endpoint; its answer's body is the file.
    ///   - destination: Where the file goes. Its folder must exist.
    ///   - resumable: Whether to keep and continue interrupted downloads.
    ///   - progress: Told how far the download has got, throttled, ending with the whole size.
    /// - Throws: The ``NetworkError`` of the exchange; ``NetworkError/fileFailed(_:)`` when the
    ///   file cannot be written.
    public func download(
        _ endpoint: some APIEndpoint, to destination: URL, resumable: Bool = false, progress: ProgressHandler? = nil
    ) async throws -> DownloadedFile {
        let clientLimit = (self as? LiveAPIClient)?.configuration.maxResponseBodySize
        let decodedLimit =
            endpoint.options.maxResponseBodySize ?? clientLimit ?? CallPlan.defaultResponseBodyLimit
        let downloader = Downloader(destination: destination, resumable: resumable, decodedLimit: decodedLimit, progress: progress)
        return try await downloader.run { headers in
            try await bytes(AdjustedEndpoint(base: endpoint, addedHeaders: headers))
        }
    }

}

/// One download: the exchange or two it takes (a stale partial file means asking again in full)
/// and the file it writes.
private struct Downloader {
    let destination: URL
    let resumable: Bool
    /// The most bytes a body the server compressed (though asked not to) may decode to.
    let decodedLimit: Int
    let progress: ProgressHandler?

    func run(_ send: ([String: String]) async throws -> StreamedResponse) async throws -> DownloadedFile {
        let start = ContinuousClock.now
        let partial = PartialDownload(destination: destination, resumable: resumable)
        partial.removeAbandonedFiles()
        var kept = partial.existing()
        while true {
            // The file is the representation's bytes: a compressed transfer would have `Range`
            // count bytes other than the file's, and a decoded body has no size the server declared.
            var headers = ["Accept-Encoding": "identity"]
            if let kept {
                headers["Range"] = "bytes=\(kept.size)-"
                headers["If-Range"] = kept.validator
            }
            let answer: StreamedResponse
            do {
                answer = try await send(headers)
            } catch NetworkError.clientError(let failure) where failure.status.code == 416 && kept != nil {
                // The kept bytes are no prefix of what the server has now: start over.
                partial.discard()
                kept = nil
                continue
            }
            var resumedFrom: Int64 = 0
            let declared: Int64? = if case .known(let length) = answer.body.length { length } else { nil }
            var total = declared
            if let resumed = kept {
                guard let range = Self.continuation(of: answer, at: resumed) else {
                    if answer.status == .partialContent {
                        // A 206 for other bytes or another version: drop it and ask in full.
                        partial.discard()
                        kept = nil
                        continue
                    }
                    // A 200: the server sent the whole file instead; it replaces the kept bytes.
                    return try await write(answer, partial: partial, from: 0, total: total, start: start)
                }
                resumedFrom = resumed.size
                total = range.completeLength ?? declared.map { resumed.size + $0 }
            } else if answer.status == .partialContent {
                throw NetworkError.transport(
                    TransportFailure(kind: .invalidResponse, underlying: UnaskedPartialContent(), request: answer.request))
            }
            return try await write(answer, partial: partial, from: resumedFrom, total: total, start: start)
        }
    }

    /// The range of `answer` when it continues the kept bytes exactly: a `206` starting where
    /// they end, for the same URL, with the kept bytes' strong validator (without one, nothing
    /// says the rest is of the same version: the kept bytes and the new ones could be two files).
    private static func continuation(of answer: StreamedResponse, at kept: PartialDownload.Record) -> ContentRange? {
        // A compressed 206 counts its range in bytes other than the kept file's.
        guard answer.status == .partialContent, !answer.response.isContentCoded, kept.url == answer.request.url?.absoluteString,
            let range = answer.headerFields[.contentRange].flatMap(ContentRange.init), range.first == kept.size,
            answer.response.strongValidator == kept.validator
        else { return nil }
        return range
    }

    private func write(
        _ answer: StreamedResponse, partial: PartialDownload, from offset: Int64, total: Int64?,
        start: ContinuousClock.Instant
    ) async throws -> DownloadedFile {
        let url = answer.request.url?.absoluteString ?? ""
        // Decoded bytes cannot be continued with a Range the server counts in its encoded ones.
        let handle = try partial.open(
            appending: offset > 0, url: url,
            validator: answer.response.isContentCoded ? nil : answer.response.strongValidator)
        let reporter = progress.map { ProgressReporter(completed: offset, total: total, handler: $0) }
        reporter?.start(completed: offset, total: total)
        var written = offset
        // Decoded by the transport: nothing the server declared bounds what it decodes to.
        let limit = answer.response.isContentCoded ? decodedLimit : nil
        do {
            for try await chunk in answer.body {
                if let limit, written - offset + Int64(chunk.count) > limit {
                    throw NetworkError.responseTooLarge(limit: limit, request: answer.request)
                }
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    throw NetworkError.fileFailed(FileFailure(url: destination, reason: .notWritable, underlying: error))
                }
                written += Int64(chunk.count)
                reporter?.add(Int64(chunk.count))
            }
            if let complete = total, written != complete {
                throw NetworkError.transport(
                    TransportFailure(
                        kind: written < complete ? .truncatedBody : .invalidResponse,
                        underlying: BodyLengthMismatch(declared: complete, received: written), request: answer.request))
            }
            try partial.complete(handle)
        } catch {
            partial.abandon(handle)
            throw error
        }
        reporter?.finish()
        return DownloadedFile(
            location: destination, request: answer.request, response: answer.response, size: written,
            resumedFrom: offset, duration: ContinuousClock.now - start)
    }
}

/// A `206` to a request that asked for no range.
private struct UnaskedPartialContent: Error, CustomStringConvertible {
    var description: String { "the server sent 206 Partial Content to a request without a Range" }
}
