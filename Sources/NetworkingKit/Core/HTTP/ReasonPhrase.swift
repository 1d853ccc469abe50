import HTTPTypes

extension HTTPResponse {
    /// This response, with RFC 9110's reason phrase for its status when it has none: URLSession
    /// does not report the server's phrase, and messages should read `404 Not Found` over every
    /// transport.
    package var withStandardReasonPhrase: HTTPResponse {
        guard status.reasonPhrase.isEmpty, let phrase = Self.standardPhrases[status.code] else { return self }
        var response = self
        response.status = HTTPResponse.Status(code: status.code, reasonPhrase: phrase)
        return response
    }

    /// RFC 9110's reason phrases for the statuses an API commonly sends.
    private static let standardPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
        203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
        402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
