/// The content codings NetworkingKit's transports ask for and decode, the same on every transport.
package enum ContentCoding {
    /// The `Accept-Encoding` a transport sends when the request has none: what every transport
    /// decodes (libcurl would otherwise also ask for `br` and `zstd`, AsyncHTTPClient for nothing).
    package static let acceptEncoding = "gzip, deflate"
}
