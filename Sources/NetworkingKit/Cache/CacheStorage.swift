public import Foundation
public import HTTPTypes

/// Identifies what a cache stores: a URL, within one partition.
///
/// The partition keeps one credential's answers from ever reaching another: it is derived from
/// the credential a request carried (never the credential itself, which must not be written to
/// disk), and is empty for requests without one and for answers marked `public`.
public struct CacheKey: Sendable, Hashable, Codable {
    /// The request's absolute URL, fragment removed.
    public var url: String
    /// The credential partition; empty when the answer may be shared.
    public var partition: String

    /// Creates a key.
    public init(url: String, partition: String = "") {
        self.url = url
        self.partition = partition
    }
}

/// A response as a cache keeps it: the final answer to a GET, with what RFC 9111 needs to decide
/// later whether it may be reused.
public struct CachedResponse: Sendable, Codable, Equatable {
    /// The status and header fields, hop-by-hop fields removed.
    public var response: HTTPResponse {
        didSet { parsed = ParsedFields(response.headerFields) }
    }
    /// The whole body.
    public var body: Data
    /// When the request that fetched it was sent (RFC 9111 §4.2.3's `request_time`).
    public var requestTime: Date
    /// When the response was received (RFC 9111 §4.2.3's `response_time`).
    public var responseTime: Date
    /// The request's values of the header fields the response's `Vary` names, lowercased names to
    /// a digest of the combined value (absent fields are absent), for matching later requests
    /// (RFC 9111 §4.1). ``HTTPCache`` keeps SHA-256 digests rather than the values, so that a
    /// response varying on `Cookie` or `Authorization` never stores the credential.
    public var varyValues: [String: String]

    /// Creates a stored response.
    public init(
        response: HTTPResponse, body: Data, requestTime: Date, responseTime: Date, varyValues: [String: String] = [:]
    ) {
        self.response = response
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyValues = varyValues
        self.parsed = ParsedFields(response.headerFields)
    }

    /// What the reuse rules read from the response's fields on every use, parsed when the
    /// response is set rather than on each hit. Derived, so neither encoded nor decoded.
    private(set) var parsed: ParsedFields

    struct ParsedFields: Sendable, Equatable {
        let cacheControl: CacheControl
        /// The `Date` field, when it holds a valid date.
        let date: Date?

        init(_ fields: HTTPFields) {
            cacheControl = CacheControl(fields)
            date = fields[.date].flatMap(HTTPDate.parse)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case response, body, requestTime, responseTime, varyValues
    }

    /// Decodes a stored response (what a disk storage wrote with `encode(to:)`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            response: try container.decode(HTTPResponse.self, forKey: .response),
            body: try container.decode(Data.self, forKey: .body),
            requestTime: try container.decode(Date.self, forKey: .requestTime),
            responseTime: try container.decode(Date.self, forKey: .responseTime),
            varyValues: try container.decode([String: String].self, forKey: .varyValues))
    }
}

/// Where a cache keeps its responses: in memory, on disk, or both.
///
/// A key may hold several responses, one per variant (`Vary`); storing a response whose
/// ``CachedResponse/varyValues`` equal an existing one's replaces it. Implementations bound
/// their size, evict least recently used entries first, are safe to call concurrently, and never
/// throw: a storage that cannot read or write behaves as if the entry were absent.
public protocol CacheStorage: Sendable {
    /// The stored variants for `key`, most recently stored first; reading counts as a use.
    func responses(for key: CacheKey) async -> [CachedResponse]
    /// Stores `response` for `key`, replacing the variant with the same ``CachedResponse/varyValues``.
    func store(_ response: CachedResponse, for key: CacheKey) async
    /// Removes the variant of `key` with these vary values, or every variant when `varyValues` is `nil`.
    func remove(_ key: CacheKey, varyValues: [String: String]?) async
    /// Removes every entry for `url`, in every partition.
    func removeAll(url: String) async
    /// Removes everything.
    func removeAll() async
}
