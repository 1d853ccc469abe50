public import Foundation

private enum EncoderKey: RequestOptionKey {
    static let defaultValue: JSONEncoder? = nil
}

private enum DecoderKey: RequestOptionKey {
    static let defaultValue: (any ResponseDecoder)? = nil
}

private enum AcceptableContentTypesKey: RequestOptionKey {
    static let defaultValue: [String]? = nil
}

extension RequestOptions {
    /// The encoder for this request's JSON body, or `nil` (the default) for the client's
    /// ``LiveAPIClient/Configuration/encoder``: one client can serve an API whose endpoints do
    /// not agree on key or date strategies.
    public var encoder: JSONEncoder? {
        get { self[EncoderKey.self] }
        set { self[EncoderKey.self] = newValue }
    }

    /// The decoder for this request's answer (and for each line of
    /// ``LiveAPIClient/lines(_:as:maxLineLength:)``), or `nil` (the default) for the client's
    /// ``LiveAPIClient/Configuration/decoder``. Error bodies are read with the client's.
    public var decoder: (any ResponseDecoder)? {
        get { self[DecoderKey.self] }
        set { self[DecoderKey.self] = newValue }
    }

    /// The media types this request's answer may have to be decoded (`application/json`,
    /// `+json`, `text/*`, `*/*` for any), or `nil` (the default) for its decoder's
    /// (``ResponseDecoder/acceptableContentTypes``: `application/json` and `+json` for JSON).
    ///
    /// An answer of another type fails with ``NetworkError/unacceptableContentType(_:accepted:)``,
    /// which names the type received: an HTML page from a proxy or a captive portal is told apart
    /// from JSON that does not fit the model. An answer without a `Content-Type` is decoded.
    /// Calls for `Data`, `String` or no value read any type.
    ///
    /// ```swift
    /// var options = RequestOptions()
    /// options.acceptableContentTypes = ["application/json", "text/json"]   // an old server
    /// ```
    public var acceptableContentTypes: [String]? {
        get { self[AcceptableContentTypesKey.self] }
        set { self[AcceptableContentTypesKey.self] = newValue }
    }
}
