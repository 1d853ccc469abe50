import Foundation

/// A URL's origin (RFC 6454): scheme, host and port, the default port filled in. What decides
/// whether credentials may follow a redirect, and which `Location` an unsafe request may
/// invalidate in the cache.
struct Origin: Hashable {
    let scheme: String
    let host: String
    let port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? Self.defaultPort(scheme: scheme)
    }

    /// The port a scheme implies when a URL names none: 443 for `https`, 80 for `http`.
    static func defaultPort(scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
