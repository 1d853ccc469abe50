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

    /// The default decoder: snake_case keys and ISO 8601 dates, with or without fractional seconds
    /// (servers send both, and Foundation's `.iso8601` accepts only the latter).
    public static func defaultDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) {
                return date
            }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
                return date
            }
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
        }
        return decoder
    }
}
