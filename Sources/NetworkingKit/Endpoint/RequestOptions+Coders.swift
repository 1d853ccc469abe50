public import Foundation

private enum EncoderKey: RequestOptionKey {
    static let defaultValue: JSONEncoder? = nil
}

private enum DecoderKey: RequestOptionKey {
    static let defaultValue: (any ResponseDecoder)? = nil
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
}
