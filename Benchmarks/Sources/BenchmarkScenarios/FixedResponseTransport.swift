import Foundation
import HTTPTypes
import NetworkingKit

/// A transport that answers every request at once with the same small JSON body: no I/O, so what
/// a benchmark measures above it is the client and its middlewares alone.
public struct FixedResponseTransport: HTTPTransport {
    public static let body = Data(#"{"director":"John Lasseter","id":1,"rating":8.3,"title":"Toy Story","year":1995}"#.utf8)

    /// A `Cache-Control` for every answer (`max-age=3600` for the cache-hit row), or none.
    public var cacheControl: String?

    public init(cacheControl: String? = nil) {
        self.cacheControl = cacheControl
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.contentLength] = "\(Self.body.count)"
        if let cacheControl { fields[.cacheControl] = cacheControl }
        return (HTTPResponse(status: .ok, headerFields: fields), HTTPBody(Self.body))
    }
}

/// The body the transport answers with.
public struct Film: Decodable, Sendable {
    public let id: Int
    public let title: String
    public let year: Int
    public let director: String
    public let rating: Double
}
