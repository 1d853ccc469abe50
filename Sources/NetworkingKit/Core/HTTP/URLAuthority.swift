public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The check every URL the library builds or follows passes before anything is sent: a host a
/// connection can be opened to and a port from 1 to 65535.
///
/// It reads the authority as text, as a transport will: Foundation parses
/// `http://127.0.0.1:99999/` with a port of 99999 (which SwiftNIO traps on, and a resolver
/// wraps round to 34463) and `http://h:18446744073709551617/` with no port at all (so the
/// request would go to port 80), and it takes `http://[zz]/` and `http://a%20b/` as hosts.
@_spi(Transport) public enum URLAuthority {
    /// Why `url`'s host or port cannot be connected to, or `nil` when they can. Only the
    /// authority is looked at: the scheme, path and query are checked elsewhere.
    public static func problem(in url: URL) -> String? {
        guard let authority = authority(of: url.absoluteString) else { return "the URL has no host" }
        return problem(inAuthority: authority)
    }

    /// Why `authority` (`host`, `host:port`, `[v6]:port`, user information ignored) cannot be
    /// connected to, or `nil` when it can.
    public static func problem(inAuthority authority: Substring) -> String? {
        let (host, port) = split(authority)
        if host.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) {
            // `split` takes the brackets off a well-formed IPv6 literal: one left is not one.
            return "the host '\(ControlCharacters.printable(String(host)))' is not a bracketed IPv6 address"
        }
        guard !host.isEmpty else { return "the URL has no host" }
        if isBracketed(authority) {
            guard isIPv6(host) else { return "'\(ControlCharacters.printable(String(host)))' is not an IPv6 address" }
        } else if let byte = host.utf8.first(where: { !isHostByte($0) }) {
            return "the host contains '\(ControlCharacters.printable(String(decoding: [byte], as: UTF8.self)))'"
        }
        // `host:` (an empty port) means the scheme's default port, as RFC 3986 §3.2.3 says.
        if let port, !port.isEmpty, portNumber(port) == nil {
            return "the port '\(ControlCharacters.printable(String(port)))' is not a number from 1 to 65535"
        }
        return nil
    }

    /// The host (an IPv6 address without its brackets) and port a connection to `authority`
    /// opens, `defaultPort` when it names none; `nil` when ``problem(inAuthority:)`` finds one.
    public static func endpoint(inAuthority authority: Substring, defaultPort: Int) -> (host: String, port: Int)? {
        guard problem(inAuthority: authority) == nil else { return nil }
        let (host, port) = split(authority)
        guard let port, !port.isEmpty else { return (String(host), defaultPort) }
        return portNumber(port).map { (String(host), $0) }
    }

    /// An authority's host (an IPv6 address without its brackets) and the text after the `:`
    /// that ends it, if there is one; user information is left out. Text after an IPv6 literal
    /// that is not a port stays with the host, which then fails the check. Read as bytes (every
    /// separator is ASCII): it runs on every authenticated call.
    static func split(_ authority: Substring) -> (host: Substring, port: Substring?) {
        let rest = withoutUserInformation(authority)
        let bytes = rest.utf8
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            let host = rest[bytes.index(after: bytes.startIndex)..<close]
            let afterClose = bytes.index(after: close)
            if afterClose == bytes.endIndex { return (host, nil) }
            if bytes[afterClose] == UInt8(ascii: ":") { return (host, rest[bytes.index(after: afterClose)...]) }
            return (rest, nil)
        }
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return (rest, nil) }
        return (rest[..<colon], rest[bytes.index(after: colon)...])
    }

    private static func withoutUserInformation(_ authority: Substring) -> Substring {
        guard let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) else { return authority }
        return authority[authority.utf8.index(after: at)...]
    }

    private static func isBracketed(_ authority: Substring) -> Bool {
        withoutUserInformation(authority).utf8.first == UInt8(ascii: "[")
    }

    /// The authority of an absolute URL's text; `nil` when it has none.
    static func authority(of text: String) -> Substring? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
        return authority.isEmpty ? nil : authority
    }

    /// The port `text` names when it is all digits (leading zeros allowed) and from 1 to 65535.
    static func portNumber(_ text: Substring) -> Int? {
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            guard value <= 65535 else { return nil }
        }
        return value >= 1 ? value : nil
    }

    /// What a host name a resolver looks up is made of: letters, digits, `-`, `.`, `_` and `~`
    /// (RFC 3986's unreserved characters). Percent-encoded bytes, spaces and RFC 3986's other
    /// sub-delimiters are legal in a URL but name no host: refused rather than sent to a resolver.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether `text` is an IPv6 address as the system reads one (a zone, `%25eth0`, is refused:
    /// it names an interface of this machine, which a server has no business choosing).
    private static func isIPv6(_ text: Substring) -> Bool {
        var address = in6_addr()
        return String(text).withCString { inet_pton(AF_INET6, $0, &address) } == 1
    }

    /// `text` as an IPv6 address in its one canonical form (RFC 5952: `0:0::1` is `::1`), or
    /// `nil` when it is not one (as ``isIPv6(_:)`` reads it).
    static func canonicalIPv6(_ text: String) -> String? {
        var address = in6_addr()
        guard text.withCString({ inet_pton(AF_INET6, $0, &address) }) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = buffer.withUnsafeMutableBufferPointer { inet_ntop(AF_INET6, &address, $0.baseAddress, socklen_t($0.count)) }
        guard written != nil else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
