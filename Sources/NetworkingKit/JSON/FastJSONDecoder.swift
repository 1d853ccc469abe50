public import Foundation

/// A JSON decoder that gives the same results as Foundation's `JSONDecoder`, values and errors
/// alike, at a fraction of its cost: the client's default.
///
/// It reads the received bytes where they lie. One pass finds the document's structure (eight
/// bytes at a time inside strings) and checks it as `JSONDecoder` checks it; strings and numbers
/// are read only when a type asks for them; keys are compared with the bytes in the document
/// rather than gathered into a dictionary per object, and one decoder serves the whole document.
/// Your `Decodable` types are unchanged.
///
/// ```swift
/// var decoder = FastJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let todos = try decoder.decode([Todo].self, from: data)
/// ```
///
/// What is the same as `JSONDecoder`: every `Decodable` feature, every key, data and
/// non-conforming float strategy, the date strategies listed in ``DateDecodingStrategy``, numbers
/// read exactly as it reads them (overflow is an error, `Double` and `Float` correctly rounded),
/// strings with every escape, the documents it accepts and rejects (including its tolerance of
/// trailing commas), nesting bounded at 512 levels, and each error's case, coding path and
/// description. What differs: `allKeys` lists keys in document order (`JSONDecoder`'s order is a
/// dictionary's); a container kept after its `init(from:)` returns may report a stale coding path.
/// Documents in UTF-16 or UTF-32, the rare integer that `JSONDecoder` reads through `Decimal` (an
/// integer written with a fraction or exponent, 2^53 or more in magnitude), and decoders made
/// with ``init(matching:)`` from a `JSONDecoder` that allows JSON5 are decoded by `JSONDecoder`
/// itself, with the same settings.
public struct FastJSONDecoder: Sendable {
    /// How dates are read: `JSONDecoder`'s strategies, and one for the timestamps most APIs send.
    /// More may come in minor releases: a `switch` over it ends with `@unknown default`.
    @nonexhaustive
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` conformance: seconds since 2001 as a number.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// An ISO 8601 timestamp as `JSONDecoder`'s `.iso8601` reads it (no fractional seconds).
        case iso8601
        /// An ISO 8601 timestamp with or without fractional seconds (`2026-11-28T09:30:00Z`,
        /// `2026-11-28T09:30:00.250+01:00`), the same dates Foundation's `ISO8601FormatStyle`
        /// parses from each form.
        case iso8601WithOptionalFractionalSeconds
        /// Your closure, given a decoder at the value.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How keys in the document map to the keys your types ask for.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How dates are read.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How `Data` is read.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// How strings stand for infinity and NaN, if they do.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Values handed to every `init(from:)` as the decoder's `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Set by ``init(matching:)`` when the `JSONDecoder` has settings only it can apply.
    private var foundation: JSONDecoder?

    /// A decoder with `JSONDecoder`'s default settings.
    public init() {}

    /// A decoder with the same settings as `decoder`: its key, date, data and float strategies
    /// and its `userInfo`. A decoder that allows JSON5 or assumes a top-level dictionary, or
    /// (on Apple platforms) reads dates with a `DateFormatter`, is used as it is.
    public init(matching decoder: JSONDecoder) {
        keyDecodingStrategy = decoder.keyDecodingStrategy
        dataDecodingStrategy = decoder.dataDecodingStrategy
        nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        userInfo = decoder.userInfo
        switch decoder.dateDecodingStrategy {
        case .deferredToDate: dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: dateDecodingStrategy = .iso8601
        case .custom(let closure): dateDecodingStrategy = .custom(closure)
        #if canImport(Darwin)
        // `.formatted(DateFormatter)`, which Apple's Foundation alone has, and any case to come.
        default: foundation = decoder
        #endif
        }
        if decoder.allowsJSON5 || decoder.assumesTopLevelDictionary { foundation = decoder }
    }

    /// Decodes a value of type `T` from a JSON document.
    ///
    /// - Throws: `DecodingError`, as `JSONDecoder` throws it for the same bytes, or an error an
    ///   `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let foundation { return try foundation.decode(type, from: data) }
        let options = Options(self)
        let outcome: Result<T, any Error>
        var fallback = false
        do {
            outcome = try data.withUnsafeBytes { raw in
                try Self.decode(type, from: raw, options: options, needsFoundation: &fallback)
            }
        } catch is JSONSyntaxError {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON."))
        } catch is JSONNeedsFoundation {
            return try foundationDecoder().decode(type, from: data)
        }
        if fallback { return try foundationDecoder().decode(type, from: data) }
        switch outcome {
        case .success(let value): return value
        case .failure(is JSONSyntaxError):
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON."))
        case .failure(let error): throw error
        }
    }

    /// Scans and decodes; the outcome says whether `JSONDecoder` must decode the document instead
    /// (a value asked for it, even if an `init(from:)` caught the error that said so).
    private static func decode<T: Decodable>(
        _ type: T.Type, from raw: UnsafeRawBufferPointer, options: Options, needsFoundation: inout Bool
    ) throws -> Result<T, any Error> {
        guard let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw JSONSyntaxError() }
        var bytes = start
        var count = raw.count
        switch JSONEncodingCheck.check(bytes, count) {
        case .utf8: break
        case .utf8WithBOM:
            bytes += 3
            count -= 3
        case .other: throw JSONNeedsFoundation()
        }
        var scanner = JSONScanner(bytes, count: count)
        do {
            try scanner.scan()
        } catch {
            scanner.tape.deallocate()
            throw error
        }
        var decoder = JSONTapeDecoder(
            document: JSONDocument(tape: scanner.tape, bytes: bytes, count: count), options: options, current: 0, path: [])
        let outcome = Result { try decoder.unwrap(0, as: type, count: 0, extra: [], step: nil) }
        needsFoundation = decoder.needsFoundation
        // A decoder or container kept by an `init(from:)` outlives the borrowed bytes.
        if !isKnownUniquelyReferenced(&decoder) || decoder.document.shared {
            decoder.document.keepBytes()
        }
        return outcome
    }

    private func foundationDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        decoder.userInfo = userInfo
        switch dateDecodingStrategy {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .iso8601WithOptionalFractionalSeconds:
            decoder.dateDecodingStrategy = .custom { decoder in
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                if let date = ISO8601Timestamp.parse(text) { return date }
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO 8601 date"))
            }
        case .custom(let closure): decoder.dateDecodingStrategy = .custom(closure)
        }
        return decoder
    }

    /// The settings as the decoder reads them while decoding.
    struct Options {
        let key: JSONDecoder.KeyDecodingStrategy
        /// Any strategy but `useDefaultKeys`: `[String: V]` keys are then left as they are.
        let convertsKeys: Bool
        let snakeCase: Bool
        let date: DateDecodingStrategy
        let data: JSONDecoder.DataDecodingStrategy
        let nonConformingFloat: JSONDecoder.NonConformingFloatDecodingStrategy
        let userInfo: [CodingUserInfoKey: Any]

        init(_ decoder: FastJSONDecoder) {
            key = decoder.keyDecodingStrategy
            if case .useDefaultKeys = key { convertsKeys = false } else { convertsKeys = true }
            if case .convertFromSnakeCase = key { snakeCase = true } else { snakeCase = false }
            date = decoder.dateDecodingStrategy
            data = decoder.dataDecodingStrategy
            nonConformingFloat = decoder.nonConformingFloatDecodingStrategy
            // An upcast of a dictionary costs a pass over it, and most have nothing in it.
            if decoder.userInfo.isEmpty {
                userInfo = [:]
            } else {
                userInfo = decoder.userInfo
            }
        }
    }
}

/// The encodings `JSONDecoder` recognises from a document's first bytes (RFC 4627, section 3).
enum JSONEncodingCheck {
    enum Found { case utf8, utf8WithBOM, other }

    static func check(_ p: UnsafePointer<UInt8>, _ count: Int) -> Found {
        // Every other encoding puts a zero in the first four bytes or starts with a byte order
        // mark (0xEF, 0xFE or 0xFF).
        if count >= 4, p[0] < 0xEF, p[0] != 0, p[1] != 0, p[2] != 0, p[3] != 0 { return .utf8 }
        let b0: UInt8? = count > 0 ? p[0] : nil
        let b1: UInt8? = count > 1 ? p[1] : nil
        let b2: UInt8? = count > 2 ? p[2] : nil
        let b3: UInt8? = count > 3 ? p[3] : nil
        switch (b0, b1, b2, b3) {
        case (0, 0, 0xFE, 0xFF), (0xFE, 0xFF, 0, 0), (0xFE, 0xFF, _, _), (0xFF, 0xFE, _, _): return .other
        case (0xEF, 0xBB, 0xBF, _): return .utf8WithBOM
        case (0, 0, 0, .some(let nz)) where nz != 0: return .other
        case (0, .some(let a), 0, .some(let b)) where a != 0 && b != 0: return .other
        case (.some(let nz), 0, 0, 0) where nz != 0: return .other
        case (.some(let a), 0, .some(let b), 0) where a != 0 && b != 0: return .other
        case (0, .some(let nz), nil, nil) where nz != 0: return .other
        case (.some(let nz), 0, nil, nil) where nz != 0: return .other
        default: return .utf8
        }
    }
}
