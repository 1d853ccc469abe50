#if AsyncHTTPClientTransport || DemoAPI
import AsyncHTTPClient
import Foundation
@_spi(Transport) import NetworkingKit
import NIOCore
import NIOHTTP1

extension HTTPHeaders {
    /// The same fields, names spelt as they were given.
    init(_ fields: HTTPFields) {
        self.init()
        reserveCapacity(fields.count)
        add(fields)
    }

    /// Adds `fields`, names spelt as they were given, with every `Cookie` field in one line: HTTP/1.1
    /// allows one `Cookie` line (RFC 6265 §5.4), where swift-http-types keeps one field per cookie
    /// (as HTTP/2 sends them), and a server that joins repeated lines with `, ` would misread them.
    mutating func add(_ fields: HTTPFields) {
        var cookieWritten = false
        for field in fields {
            if field.name == .cookie {
                guard !cookieWritten else { continue }
                cookieWritten = true
                // The getter joins every Cookie field with "; ".
                add(name: field.name.rawName, value: fields[.cookie] ?? field.value)
            } else {
                add(name: field.name.rawName, value: field.value)
            }
        }
    }
}

extension HTTPRequest {
    /// The URL AsyncHTTPClient is given: built from the parts, not through URL, so the path is
    /// sent exactly as it was encoded. Its host and port are checked first: SwiftNIO traps on a
    /// port above 65535 (a crash any server could cause with a redirect, were it not checked).
    func absoluteURLString() throws -> String {
        guard let scheme, let authority, let path else {
            throw NetworkError.invalidRequest(reason: "the request has no absolute URL")
        }
        let url = "\(scheme)://\(authority)\(path)"
        if let problem = URLAuthority.problem(inAuthority: authority[...]) {
            throw NetworkError.invalidURL(url, reason: problem)
        }
        return url
    }
}

extension HTTPClientRequest {
    /// The AsyncHTTPClient request for a swift-http-types request, its body and its fields.
    init(_ request: HTTPRequest, body: HTTPBody, headers: HTTPHeaders) throws {
        self.init(url: try request.absoluteURLString())
        method = HTTPMethod(rawValue: request.method.rawValue)
        self.headers = headers
        self.body = Self.body(for: body)
    }

    private static func body(for body: HTTPBody) -> Body {
        if let data = body.bufferedData {
            return .bytes(ByteBuffer(bytes: data))
        }
        let length: Body.Length
        switch body.length {
        case .known(let count): length = .known(count)
        case .unknown: length = .unknown
        }
        return .stream(body.map { ByteBuffer(bytes: $0) }, length: length)
    }
}

extension HTTPClient.Request {
    /// The AsyncHTTPClient request (of its delegate API) for a swift-http-types request without
    /// a body, and its fields.
    init(_ request: HTTPRequest, headers: HTTPHeaders) throws {
        try self.init(url: try request.absoluteURLString(), method: HTTPMethod(rawValue: request.method.rawValue), headers: headers)
    }
}

extension HTTPResponse {
    /// The swift-http-types response for an AsyncHTTPClient response head. A header whose name
    /// is not a valid token is dropped rather than failing the whole answer.
    init(status: HTTPResponseStatus, headers: HTTPHeaders, request: RequestSummary) throws {
        guard (100...999).contains(status.code) else {
            throw NetworkError.transport(
                TransportFailure(kind: .invalidResponse, underlying: nil, request: request))
        }
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let name = HTTPField.Name.received(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(
            status: HTTPResponse.Status(code: Int(status.code), reasonPhrase: status.reasonPhrase),
            headerFields: fields
        )
    }
}
#endif
