import Foundation
import HTTPTypes

/// Turns a successful response body into the caller's type.
///
/// `Data` is returned as it is, `String` as UTF-8 text, ``EmptyResponse`` ignores the body, and
/// every other type is decoded as JSON. A response that has no body by definition (204, 205, 304,
/// or any answer to `HEAD`) decodes to ``EmptyResponse``, an optional's `nil`, empty `Data` or an
/// empty `String`; asking for anything else is a decoding failure, not a crash.
enum ResponseDecoding {
    /// The `Accept` field for an expected type: JSON unless the caller wants raw bytes or text.
    /// Made once: a field made per call checks its value per call.
    static func accept(for type: Any.Type) -> HTTPField? {
        if type == Data.self || type == EmptyResponse.self { return nil }
        if type == String.self { return acceptText }
        return acceptJSON
    }

    /// ``accept(for:)``, for a decoder (or an endpoint) that reads other media types than JSON: an
    /// XML decoder asks for XML.
    static func accept(for type: Any.Type, decoding accepted: [String]?) -> HTTPField? {
        guard let accepted, !MediaTypes.isJSON(accepted), type != Data.self, type != EmptyResponse.self, type != String.self
        else { return accept(for: type) }
        return HTTPField(name: .accept, value: MediaTypes.acceptValue(for: accepted))
    }

    private static let acceptJSON = HTTPField(name: .accept, value: "application/json")
    private static let acceptText = HTTPField(name: .accept, value: "text/plain, */*;q=0.8")

    static func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data,
        response: HTTPResponse,
        method: HTTPMethod,
        decoder: any ResponseDecoder,
        acceptableContentTypes: [String]? = nil,
        request: RequestSummary
    ) throws -> T {
        // The status is parsed from its field on every read: read once.
        let code = response.status.code
        let hasNoBody = method == .head || code == 204 || code == 205 || code == 304
        let body = hasNoBody ? Data() : data

        // Compared as types first: a cast to a type it cannot be costs a dynamic cast per call.
        if T.self == EmptyResponse.self || T.self == EmptyResponse?.self, let value = EmptyResponse() as? T { return value }
        if T.self == Data.self || T.self == Data?.self, let value = body as? T { return value }
        if T.self == String.self {
            guard let text = String(data: body, encoding: .utf8), let value = text as? T else {
                throw failure(type, body, reason: "the body is not valid UTF-8 text", request: request)
            }
            return value
        }
        if body.isEmpty {
            if let optional = T.self as? any OptionalDecodable.Type, let value = optional.none as? T {
                return value
            }
            throw failure(type, body, reason: "the response had no body", request: request)
        }
        if let accepted = acceptableContentTypes ?? decoder.acceptableContentTypes,
            let contentType = firstContentType(of: response), !MediaTypes.accepts(contentType, accepted)
        {
            throw NetworkError.unacceptableContentType(
                HTTPFailure(
                    request: request, response: response, body: body.prefix(HTTPFailure.maxBodyCopy),
                    isBodyTruncated: body.count > HTTPFailure.maxBodyCopy),
                accepted: accepted)
        }
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw NetworkError.decodingFailed(DecodingFailure(decoding: type, from: body, error: error, request: request))
        }
    }

    /// The first `Content-Type` field's value. Read in a loop, not with the fields' subscript, which
    /// joins repeated fields through generic code of swift-http-types: about 4,000 instructions a
    /// call, most of them runtime lookups of generic metadata.
    private static func firstContentType(of response: HTTPResponse) -> String? {
        for field in response.headerFields where field.name == .contentType {
            return field.value
        }
        return nil
    }

    private static func failure(_ type: Any.Type, _ body: Data, reason: String, request: RequestSummary) -> NetworkError {
        .decodingFailed(
            DecodingFailure(
                typeName: String(describing: type),
                codingPath: "",
                reason: reason,
                snippet: DecodingFailure.snippet(of: body),
                request: request,
                underlying: nil
            ))
    }
}

/// Lets an empty body decode to `nil` when the caller asked for an optional.
protocol OptionalDecodable {
    static var none: Self { get }
}

extension Optional: OptionalDecodable {}
