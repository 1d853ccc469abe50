import Foundation
import HTTPTypes
import NetworkingKit

/// A transport that answers every request at once with the same small JSON body: no I/O, so what
/// a benchmark measures above it is the client and its middlewares alone.
struct FixedResponseTransport: HTTPTransport {
    static let body = Data(#"{"director":"John Lasseter","id":1,"rating":8.3,"title":"Toy Story","year":1995}"#.utf8)

    /// A `Cache-Control` for every answer (`max-age=3600` for the cache-hit row), or none.
    var cacheControl: String?

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.contentLength] = "\(Self.body.count)"
        if let cacheControl { fields[.cacheControl] = cacheControl }
        return (HTTPResponse(status: .ok, headerFields: fields), HTTPBody(Self.body))
    }
}

/// The body the transport answers with.
struct Film: Decodable, Sendable {
    let id: Int
    let title: String
    let year: Int
    let director: String
    let rating: Double
}
