import HTTPTypes

extension HTTPBody {
    /// The body length a response declares, when the bytes a transport hands on can be checked
    /// against it: 0 for answers that have no body (HEAD, 1xx, 204, 304), `nil` for encoded bodies
    /// (the transport decodes them, so the bytes received are not the bytes declared) and when
    /// there is no `Content-Length`.
    /// - Throws: ``NetworkError/transport(_:)`` `invalidResponse` for a `Content-Length` that is
    ///   not one decimal number: RFC 9112 §6.3 makes an invalid or repeated length (URLSession on
    ///   Linux merges two fields into `5, 6`) an unrecoverable framing error, as AsyncHTTPClient
    ///   already treats it, because the body's end can no longer be known.
    @_spi(Transport) public static func declaredLength(of response: HTTPResponse, isHead: Bool) throws -> Int64? {
        let code = response.status.code
        if isHead || (100..<200).contains(code) || code == 204 || code == 304 { return 0 }
        // Repeated fields come back joined with ", " (and URLSession merges them so itself), so
        // anything but digits is a repetition or a value that is not a number.
        guard let field = response.headerFields[.contentLength] else { return nil }
        guard field.isASCIIDigits,
            let declared = Int64(field)
        else {
            throw NetworkError.transport(
                TransportFailure(kind: .invalidResponse, underlying: InvalidContentLength(value: field)))
        }
        return response.isContentCoded ? nil : declared
    }
}

/// A response's `Content-Length` that is not one decimal number.
package struct InvalidContentLength: Error, CustomStringConvertible {
    /// The field's value, repeated fields joined with ", ".
    package let value: String

    package var description: String {
        "invalid Content-Length '\(value)': RFC 9112 §6.3 makes it a framing error"
    }
}
