public import Foundation
public import HTTPTypes

/// A decoded answer together with the response it came from.
public struct Response<Value> {
    /// The decoded value.
    public var value: Value
    /// The method and URL of the request.
    public let request: RequestSummary
    /// The response head: status and headers.
    public let response: HTTPResponse
    /// The raw body the value was decoded from.
    public let data: Data
    /// From building the request to having decoded the answer.
    public let duration: Duration

    /// Creates a response.
    public init(value: Value, request: RequestSummary, response: HTTPResponse, data: Data, duration: Duration) {
        self.value = value
        self.request = request
        self.response = response
        self.data = data
        self.duration = duration
    }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }

    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }

    /// The same response with its value transformed.
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Response<NewValue> {
        Response<NewValue>(value: try transform(value), request: request, response: response, data: data, duration: duration)
    }
}

extension Response: Sendable where Value: Sendable {}
