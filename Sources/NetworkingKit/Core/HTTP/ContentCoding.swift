import HTTPTypes

/// The content codings NetworkingKit's transports ask for and decode, the same on every transport.
package enum ContentCoding {
    /// The `Accept-Encoding` a transport sends when the request has none: what every transport
    /// decodes (libcurl would otherwise also ask for `br` and `zstd`, AsyncHTTPClient for nothing).
    package static let acceptEncoding = "gzip, deflate"
}

extension HTTPResponse {
    /// Whether the body was sent in a content coding (`Content-Encoding` other than `identity`):
    /// the transport hands on decoded bytes, which no length the server declared bounds.
    package var isContentCoded: Bool {
        guard let encoding = headerFields[.contentEncoding] else { return false }
        return encoding.lowercased() != "identity"
    }
}
