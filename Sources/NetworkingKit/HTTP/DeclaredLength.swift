import HTTPTypes

extension HTTPBody {
    /// The body length a response declares, when the bytes a transport hands on can be checked
    /// against it: 0 for answers that have no body (HEAD, 1xx, 204, 304), `nil` for encoded bodies
    /// (the transport decodes them, so the bytes received are not the bytes declared) and when
    /// there is no valid `Content-Length`.
    package static func declaredLength(of response: HTTPResponse, isHead: Bool) -> Int64? {
        let code = response.status.code
        if isHead || (100..<200).contains(code) || code == 204 || code == 304 { return 0 }
        if let encoding = response.headerFields[.contentEncoding], encoding.lowercased() != "identity" { return nil }
        guard let declared = response.headerFields[.contentLength].flatMap({ Int64($0) }), declared >= 0 else {
            return nil
        }
        return declared
    }
}
