public import Foundation

/// Turns an answer's body into a value: how the client reads what a server sends.
///
/// ``FastJSONDecoder`` is the default (the same results as `JSONDecoder`, at a fraction of the
/// cost); a `JSONDecoder` you configure works as it is. Other formats plug in the same way: a
/// property-list decoder, a protobuf or MessagePack decoder of your own.
///
/// ```swift
/// struct PropertyListAnswers: ResponseDecoder {
///     func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
///         try PropertyListDecoder().decode(type, from: data)
///     }
/// }
/// ```
public protocol ResponseDecoder: Sendable {
    /// Decodes a value of type `T` from an answer's body.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T

    /// The media types this decoder reads (`application/json`, `+json`, `type/*`, `*/*`): an
    /// answer labelled otherwise fails with ``NetworkError/unacceptableContentType(_:accepted:)``
    /// before it is decoded; `nil` (the default) checks nothing. An endpoint can say otherwise
    /// with ``RequestOptions/acceptableContentTypes``.
    var acceptableContentTypes: [String]? { get }
}

extension ResponseDecoder {
    /// No check: a decoder of another format says what it reads.
    public var acceptableContentTypes: [String]? { nil }
}

extension JSONDecoder: ResponseDecoder {
    /// `application/json` and every `+json` type (`application/problem+json`).
    public var acceptableContentTypes: [String]? { MediaTypes.json }
}

extension FastJSONDecoder: ResponseDecoder {
    /// `application/json` and every `+json` type (`application/problem+json`).
    public var acceptableContentTypes: [String]? { MediaTypes.json }
}
