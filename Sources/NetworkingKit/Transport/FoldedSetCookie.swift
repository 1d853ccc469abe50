import HTTPTypes

extension HTTPResponse {
    /// The response with each `Set-Cookie` field that Foundation folded into one (it keeps header
    /// fields in a dictionary and joins repeated ones with `, `) split back into one field per
    /// cookie, as the server sent them and as the other transports deliver them.
    var withSetCookieUnfolded: HTTPResponse {
        guard headerFields[values: .setCookie].contains(where: { $0.contains(",") }) else { return self }
        var response = self
        let cookies = headerFields[values: .setCookie].flatMap(FoldedSetCookie.split)
        response.headerFields[values: .setCookie] = cookies
        return response
    }
}

/// Splitting `Set-Cookie` fields joined with commas. A comma also appears inside a cookie, in an
/// `Expires` date (`Wed, 09 Jun 2021 10:18:14 GMT`); a new cookie starts only where a comma is
/// followed by a name and `=` with no space, `;` or `,` between, which a date never is. A cookie
/// value may not hold a comma (RFC 6265 §4.1.1), so a server that keeps the rules is split right.
enum FoldedSetCookie {
    static func split(_ value: String) -> [String] {
        var cookies: [String] = []
        var start = value.startIndex
        var index = value.startIndex
        while let comma = value[index...].firstIndex(of: ",") {
            let next = value.index(after: comma)
            if startsCookie(value[next...]) {
                cookies.append(value[start..<comma].trimmingHTTPWhitespace())
                start = next
            }
            index = next
        }
        cookies.append(value[start...].trimmingHTTPWhitespace())
        return cookies.filter { !$0.isEmpty }
    }

    /// Whether `rest` (what follows a comma) starts with optional spaces, then a token and `=`.
    private static func startsCookie(_ rest: Substring) -> Bool {
        let trimmed = rest.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let name = trimmed[..<equals]
        return !name.isEmpty && !name.contains { $0 == " " || $0 == "\t" || $0 == ";" || $0 == "," }
    }
}
