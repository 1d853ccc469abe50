import Foundation

/// A response that arrived but could not be decoded into the type the caller asked for.
public struct DecodingFailure: Sendable, CustomStringConvertible {
    /// How many characters of the body ``snippet`` keeps.
    public static let snippetLength = 256

    /// The type the caller asked for.
    public let typeName: String
    /// Where in the body decoding failed, as a path (`films[2].release_date`); empty at the top level.
    public let codingPath: String
    /// What the decoder said.
    public let reason: String
    /// The start of the body, to see at a glance what arrived instead (an HTML error page, say).
    public let snippet: String
    /// The request whose response could not be decoded.
    public let request: RequestSummary?
    /// The decoder's own error.
    public let underlying: (any Error)?

    /// Creates a decoding failure.
    public init(
        typeName: String,
        codingPath: String,
        reason: String,
        snippet: String,
        request: RequestSummary?,
        underlying: (any Error)?
    ) {
        self.typeName = typeName
        self.codingPath = codingPath
        self.reason = reason
        self.snippet = snippet
        self.request = request
        self.underlying = underlying
    }

    /// Describes a decoding error thrown while decoding `body` as `type`.
    init(decoding type: Any.Type, from body: Data, error: any Error, request: RequestSummary?) {
        let (path, reason) = Self.describe(error)
        self.init(
            typeName: String(describing: type),
            codingPath: path,
            reason: reason,
            snippet: Self.snippet(of: body),
            request: request,
            underlying: error
        )
    }

    /// The first ``snippetLength`` characters of `body`, as UTF-8 where it is (else a byte count).
    static func snippet(of body: Data) -> String {
        let head = body.prefix(snippetLength * 4)
        // The cut may fall inside a multi-byte character: drop up to three bytes to find text.
        let text = (0...3).lazy.compactMap { String(data: head.dropLast($0), encoding: .utf8) }.first
        guard let text else {
            return "<\(body.count) bytes of binary data>"
        }
        return text.count > snippetLength ? String(text.prefix(snippetLength)) + "…" : text
    }

    private static func describe(_ error: any Error) -> (path: String, reason: String) {
        guard let decodingError = error as? DecodingError else {
            return ("", String(describing: error))
        }
        switch decodingError {
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "missing \(type) value: \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "missing key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError).map { " (\($0))" } ?? ""
            return (path(context.codingPath), context.debugDescription + underlying)
        @unknown default:
            return ("", String(describing: decodingError))
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// `could not decode PixarFilm at films[0].title: … Body: "<html>…"`.
    public var description: String {
        let location = codingPath.isEmpty ? "" : " at \(codingPath)"
        // Foundation's reasons end with a full stop of their own ("... but found a string instead.").
        let stop = reason.last.map { ".!?".contains($0) } ?? false ? "" : "."
        return "could not decode \(typeName)\(location): \(reason)\(stop) Body: \"\(snippet)\""
    }
}
