import Foundation
import HTTPTypes

/// An endpoint as it is, with headers added, its body or options replaced: how a call such as a
/// resumed download adds `Range` to an endpoint it was given.
struct AdjustedEndpoint<Base: APIEndpoint>: APIEndpoint {
    let base: Base
    var addedHeaders: [String: String] = [:]
    var replacedBody: RequestBody?
    var adjustOptions: (@Sendable (inout RequestOptions) -> Void)?

    var baseURL: URL { base.baseURL }
    var path: String { base.path }
    var method: Base.Method { base.method }
    var headers: [String: String] { addingHeaders(addedHeaders, to: base.headers) }
    var queryItems: [URLQueryItem]? { base.queryItems }
    /// Left as it is: a replaced body is a ``requestBody``, which takes precedence.
    var body: Base.Body { base.body }
    var requestBody: RequestBody? { replacedBody ?? base.requestBody }
    var options: RequestOptions {
        var options = base.options
        adjustOptions?(&options)
        return options
    }
}

/// `headers` with `added` in, replacing any of the same name whatever its case.
func addingHeaders(_ added: [String: String], to headers: [String: String]) -> [String: String] {
    guard !added.isEmpty else { return headers }
    let names = Set(added.keys.map { $0.lowercased() })
    return headers.filter { !names.contains($0.key.lowercased()) }.merging(added) { _, new in new }
}
