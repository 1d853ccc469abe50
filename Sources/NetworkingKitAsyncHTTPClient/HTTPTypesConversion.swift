#if AsyncHTTPClientTransport || DemoAPI
import AsyncHTTPClient
import Foundation
import NetworkingKit
import NIOCore
import NIOHTTP1

extension HTTPClientRequest {
    /// The AsyncHTTPClient request for a swift-http-types request and its body.
    init(_ request: HTTPRequest, body: HTTPBody?) throws {
        guard let scheme = request.scheme, let authority = request.authority, let path = request.path else {
            throw NetworkError.invalidRequest(reason: "the request has no absolute URL")
        }
        // Built from the parts, not through URL, so the path is sent exactly as it was encoded.
        self.init(url: "\(scheme)://\(authority)\(path)")
        method = HTTPMethod(rawValue: request.method.rawValue)
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            self.body = Self.body(for: body)
        }
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

extension HTTPResponse {
    /// The swift-http-types response for an AsyncHTTPClient response head. A header whose name
    /// is not a valid token is dropped rather than failing the whole answer.
    init(_ response: HTTPClientResponse, request: RequestSummary) throws {
        guard (100...999).contains(response.status.code) else {
            throw NetworkError.transport(
                TransportFailure(kind: .invalidResponse, underlying: nil, request: request))
        }
        var fields = HTTPFields()
        fields.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            guard let name = HTTPField.Name.received(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(
            status: HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
            headerFields: fields
        )
    }
}
#endif
