import Foundation
import HTTPTypes

/// What the client needs to build one request, whichever shape described it (an ``APIEndpoint``
/// or a ``Request``, which is one). Building is synchronous and happens before anything is sent, so every
/// problem with the description is a thrown error with no byte on the wire.
struct RequestTarget {
    /// The relative URL `/`, the default ``APIEndpoint/baseURL``: "the client's base URL".
    static let clientBaseURL: URL = URL(string: "/") ?? URL(fileURLWithPath: "/")

    enum Body {
        case encodable(any Encodable)
        case content(RequestBody)
    }

    var baseURL: URL
    var path: String
    var method: HTTPMethod
    var headers: [String: String]
    var queryItems: [URLQueryItem]?
    var body: Body?
    var options: RequestOptions
    /// The endpoint, kept for its operation name (made only when asked for); `nil` for a typed
    /// ``Request``, which is named by its options or not at all (neither boxed nor reflected).
    var endpoint: (any APIEndpoint)?

    init(_ endpoint: some APIEndpoint) throws {
        self.baseURL = endpoint.baseURL
        self.path = endpoint.path
        self.method = try EndpointMembers.method(endpoint.method)
        self.headers = endpoint.headers
        self.queryItems = endpoint.queryItems
        if let content = endpoint.requestBody {
            self.body = .content(content)
        } else {
            self.body = try EndpointMembers.body(endpoint.body)
        }
        self.options = endpoint.options
        self.endpoint = Self.isTypedRequest(endpoint) ? nil : endpoint
    }

    /// Whether `endpoint` is a typed ``Request``: told by its body's type, a comparison of
    /// metadata, where a protocol check cost a conformance lookup on every call. An endpoint enum
    /// that declares its body as a `RequestBody?` too is taken for one: it is sent the same, and
    /// only goes without its case name as its operation name.
    private static func isTypedRequest<Endpoint: APIEndpoint>(_ endpoint: Endpoint) -> Bool {
        Endpoint.Body.self == RequestBody?.self
    }

    /// Builds the HTTP request and its body.
    /// - Parameters:
    ///   - clientBase: The client's base URL.
    ///   - encoder: The client's encoder, for a body the endpoint gives no encoder of its own.
    ///   - defaultFields: The client's default headers, validated once when the client was made; those
    ///     that carry credentials only for the base URL's origin.
    ///   - accept: The `Accept` field for the expected response, added unless a header gives one.
    func build(
        clientBase: URL?,
        encoder: JSONEncoder,
        parsedBase: ParsedBaseURL?,
        defaultFields: DefaultFields,
        accept: HTTPField?
    ) throws -> (HTTPRequest, HTTPBody?) {
        // The URL first, so that a bad one is the error reported. Relative to the client's base
        // URL (nearly every call), the request is joined from the base's parts.
        try URLBuilder.checkPath(path)
        var request: HTTPRequest
        var fields: HTTPFields
        if let parsedBase,
            let joined = URLBuilder.request(
                method: method, base: parsedBase, endpointBase: baseURL, path: path, queryItems: queryItems,
                headerFields: [:])
        {
            request = joined
            fields = defaultFields.fields
        } else {
            let url = try URLBuilder.url(
                clientBase: clientBase, endpointBase: baseURL, path: path, queryItems: queryItems)
            request = HTTPRequest(method: method, url: url)
            fields = defaultFields.fields(for: request)
        }
        try HeaderValidation.merge(headers, into: &fields)
        if let accept, !fields.contains(.accept) {
            fields.append(accept)
        }
        let (httpBody, contentType) = try encodeBody(with: options.encoder ?? encoder)
        if let contentType, !fields.contains(.contentType) {
            try HeaderValidation.validate(value: contentType, of: "Content-Type")
            fields[.contentType] = contentType
        }
        request.headerFields = fields
        return (request, httpBody)
    }

    private func encodeBody(with encoder: JSONEncoder) throws -> (HTTPBody?, String?) {
        switch body {
        case nil:
            return (nil, nil)
        case .encodable(let value):
            return (HTTPBody(try encodeJSON(value, with: encoder)), "application/json")
        case .content(let content):
            switch content.content {
            case .json(let value):
                return (HTTPBody(try encodeJSON(value, with: encoder)), "application/json")
            case .data(let data, let contentType):
                return (HTTPBody(data), contentType)
            case .form(let fields):
                return (HTTPBody(PercentEncoding.formEncode(fields)), "application/x-www-form-urlencoded")
            case .encodedForm(let value, let formEncoder):
                let fields: [URLQueryItem]
                do {
                    fields = try formEncoder.encode(value)
                } catch {
                    throw NetworkError.encodingFailed(reason: "\(type(of: value)) could not be encoded as a form", underlying: error)
                }
                return (HTTPBody(PercentEncoding.formEncode(fields)), "application/x-www-form-urlencoded")
            case .stream(let stream, let contentType):
                return (stream, contentType)
            case .file(let url, let contentType):
                return (try HTTPBody.file(at: url), contentType ?? MediaType.forFile(url))
            case .multipart(let form):
                let body = try form.makeBody()
                return (body, form.contentType)
            }
        }
    }

    private func encodeJSON(_ value: any Encodable, with encoder: JSONEncoder) throws -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            throw NetworkError.encodingFailed(
                reason: "\(type(of: value)) could not be encoded as JSON", underlying: error)
        }
    }
}
