import Foundation

extension APIClient {
    /// Sends `body` (a file, a multipart form, any ``RequestBody``) to an endpoint in place of the
    /// endpoint's own body, and decodes the answer as ``response(_:as:)`` does.
    ///
    /// ```swift
    /// var form = MultipartFormData()
    /// form.append("Luxo Jr.", name: "title")
    /// try form.append(fileAt: posterURL, name: "poster")
    /// let receipt = try await client.upload(.multipart(form), to: Uploads.create, as: UploadReceipt.self) { progress in
    ///     print(progress)
    /// }
    /// ```
    ///
    /// A file is read from disk in chunks while it is sent, and read again when a retry or a
    /// `307`/`308` redirect sends the body again.
    /// - Parameters:
    ///   - body: The body sent in place of the endpoint's own.
    ///   - endpoint: The endpoint: path, method, headers and options.
    ///   - type: The type the answer decodes to.
    ///   - progress: Told how much of the body has been sent, throttled, ending with the whole body
    ///     once a successful response has arrived.
    public func upload<T: Decodable & Sendable>(
        _ body: RequestBody, to endpoint: some APIEndpoint, as type: T.Type = T.self, progress: ProgressHandler? = nil
    ) async throws -> Response<T> {
        var adjusted = AdjustedEndpoint(base: endpoint, replacedBody: body)
        if let progress {
            adjusted.adjustOptions = { $0.uploadProgress = progress }
        }
        return try await response(adjusted, as: type)
    }

    /// Sends `body` with a typed request in place of its own, and decodes the answer into the
    /// request's response type; see ``upload(_:to:as:progress:)``.
    public func upload<T: Decodable & Sendable>(
        _ body: RequestBody, to request: Request<T>, progress: ProgressHandler? = nil
    ) async throws -> Response<T> {
        try await upload(body, to: request, as: T.self, progress: progress)
    }
}
