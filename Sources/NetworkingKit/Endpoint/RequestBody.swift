public import Foundation

/// The body of a request, before the client encodes it.
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case json(any Encodable & Sendable)
        case data(Data, contentType: String?)
        case form([URLQueryItem])
        case encodedForm(any Encodable & Sendable, URLQueryEncoder)
        case stream(HTTPBody, contentType: String?)
        case file(URL, contentType: String?)
        case multipart(MultipartFormData)
    }

    let content: Content

    /// A value encoded as JSON with the client's encoder; `Content-Type: application/json`.
    public static func json(_ value: some Encodable & Sendable) -> RequestBody {
        RequestBody(content: .json(value))
    }

    /// Raw bytes, sent as they are, with the given content type (none if `nil`).
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .data(data, contentType: contentType))
    }

    /// UTF-8 text; `Content-Type: text/plain; charset=utf-8` unless another is given.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(content: .data(Data(text.utf8), contentType: contentType))
    }

    /// A URL-encoded form (`application/x-www-form-urlencoded`), fields in order.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(content: .form(fields))
    }

    /// A URL-encoded form from name-value pairs, sorted by name so the body is deterministic.
    public static func form(_ fields: [String: String]) -> RequestBody {
        .form(fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// A URL-encoded form from an `Encodable` value, its fields written by `encoder` (arrays,
    /// booleans, dates and nested values as it says) when the request is built; a value it cannot
    /// encode fails the call with ``NetworkError/encodingFailed(reason:underlying:)``.
    public static func form(_ value: some Encodable & Sendable, encoder: URLQueryEncoder = URLQueryEncoder()) -> RequestBody {
        RequestBody(content: .encodedForm(value, encoder))
    }

    /// A streamed body, for uploads too large to hold in memory.
    ///
    /// A body created with ``HTTPBody/IterationBehavior-swift.enum/single`` is never resent by a
    /// retry or a redirect.
    public static func stream(_ body: HTTPBody, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .stream(body, contentType: contentType))
    }

    /// A file streamed from disk in chunks, with its length as `Content-Length`; the content type
    /// comes from the file's extension unless one is given.
    ///
    /// The file is checked when the request is built: a missing or unreadable file fails with
    /// ``NetworkError/fileFailed(_:)`` before anything is sent. It is opened again for every
    /// send, so retries and `307`/`308` redirects replay it; a file whose size changes while it
    /// is sent fails the call with ``FileFailure/Reason/changedWhileReading(expected:found:)``.
    public static func file(_ url: URL, contentType: String? = nil) -> RequestBody {
        RequestBody(content: .file(url, contentType: contentType))
    }

    /// A `multipart/form-data` body; see ``MultipartFormData``.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        RequestBody(content: .multipart(form))
    }
}
