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
}

extension JSONDecoder: ResponseDecoder {}

extension FastJSONDecoder: ResponseDecoder {}
