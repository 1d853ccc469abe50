public import Foundation

extension LiveAPIClient.Configuration {
    /// The default encoder: snake_case keys and ISO 8601 dates, as the seeds' APIs expect, and
    /// keys in a stable order, so that the same value always makes the same bytes (on every
    /// platform, for signatures, idempotency keys and test fixtures).
    public static func defaultEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The default decoder: a ``FastJSONDecoder`` with snake_case keys and ISO 8601 dates, with or
    /// without fractional seconds (servers send both).
    public static func defaultDecoder() -> FastJSONDecoder {
        var decoder = FastJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601WithOptionalFractionalSeconds
        return decoder
    }
}
