private enum UploadProgressKey: RequestOptionKey {
    static let defaultValue: ProgressHandler? = nil
}

/// The upload's progress, carried in ``RequestOptions``.
extension RequestOptions {
    /// Told how much of the request body has been sent, throttled, ending with the whole body
    /// once a successful response head has arrived; see ``TransferProgress``.
    ///
    /// Kept with the middlewares' options rather than as a field of its own, so that the options
    /// every call copies stay as small as they were.
    public var uploadProgress: ProgressHandler? {
        get { self[UploadProgressKey.self] }
        set { self[UploadProgressKey.self] = newValue }
    }
}
