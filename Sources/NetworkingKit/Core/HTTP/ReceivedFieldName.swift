public import HTTPTypes

extension HTTPField.Name {
    /// The name of a field a server sent, or `nil` when it is not a valid token.
    ///
    /// The names most answers carry, spelt as swift-http-types spells them (`Content-Type`), are
    /// found in a table: `HTTPField.Name(_:)` lowercases every name holding a capital into a new
    /// string, which cost a transport more than the rest of converting a response head. Any other
    /// spelling goes through `HTTPField.Name(_:)`, so the name keeps the server's spelling either way.
    @_spi(Transport) public static func received(_ name: String) -> HTTPField.Name? {
        let count = name.utf8.count
        if count < commonByLength.count {
            for common in commonByLength[count] where common.rawName == name {
                return common
            }
        }
        return HTTPField.Name(name)
    }

    /// The response fields of everyday answers, by the length of their name.
    private static let commonByLength: [[HTTPField.Name]] = {
        let common: [HTTPField.Name] = [
            .acceptRanges, .accessControlAllowCredentials, .accessControlAllowHeaders, .accessControlAllowMethods,
            .accessControlAllowOrigin, .accessControlExposeHeaders, .accessControlMaxAge, .age, .allow, .cacheControl,
            .connection, .contentDisposition, .contentEncoding, .contentLanguage, .contentLength, .contentLocation,
            .contentRange, .contentSecurityPolicy, .contentType, .date, .eTag, .expires, .lastModified, .location,
            .retryAfter, .server, .setCookie, .strictTransportSecurity, .transferEncoding, .vary, .via,
            .wwwAuthenticate, .xContentTypeOptions, HTTPField.Name("Keep-Alive")!, HTTPField.Name("Link")!,
            HTTPField.Name("X-Cache")!, HTTPField.Name("X-Request-ID")!,
        ]
        var table = [[HTTPField.Name]](repeating: [], count: common.map(\.rawName.utf8.count).max()! + 1)
        for name in common { table[name.rawName.utf8.count].append(name) }
        return table
    }()
}
