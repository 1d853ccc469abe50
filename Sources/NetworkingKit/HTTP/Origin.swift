import Foundation
import HTTPTypes

/// A URL's origin (RFC 6454): scheme, host and port, the default port filled in. What decides
/// whether credentials may follow a redirect or a page link, and which `Location` an unsafe
/// request may invalidate in the cache.
struct Origin: Hashable {
    let scheme: String
    let host: String
    let port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? Self.defaultPort(scheme: scheme)
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// An origin no request has: credentials given for it go nowhere.
    static let nowhere = Origin(scheme: "", host: "", port: nil)

    /// The port a scheme implies when a URL names none: 443 for `https`, 80 for `http`.
    static func defaultPort(scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "https": 443
        case "http": 80
        default: nil
        }
    }

    /// Whether `request` goes to this origin, read from its scheme and authority without making
    /// a URL or a string (it runs on every authenticated call).
    func contains(_ request: HTTPRequest) -> Bool {
        guard let requestScheme = request.scheme, let authority = request.authority, !host.isEmpty,
            Self.equalIgnoringASCIICase(requestScheme[...], scheme)
        else { return false }
        let (requestHost, portText) = URLAuthority.split(authority[...])
        let requestPort = portText.flatMap { $0.isEmpty ? nil : URLAuthority.portNumber($0) } ?? Self.defaultPort(scheme: scheme)
        return requestPort == port && Self.equalIgnoringASCIICase(requestHost, host)
    }

    /// Whether `text` is `lowercase` (lowercase ASCII already) but for the case of its letters.
    private static func equalIgnoringASCIICase(_ text: Substring, _ lowercase: String) -> Bool {
        text.utf8.elementsEqual(lowercase.utf8) { byte, expected in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == expected
        }
    }
}
